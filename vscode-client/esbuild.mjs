// Bundles the extension and its runtime dependency (vscode-languageclient) into dist/extension.js,
// so the .vsix ships one file instead of node_modules. `--production` minifies and drops the
// source map (what `vsce package` runs through `vscode:prepublish`).
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');

await esbuild.build({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  outfile: 'dist/extension.js',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
});
