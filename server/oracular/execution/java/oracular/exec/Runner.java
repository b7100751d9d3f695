package oracular.exec;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.security.Permission;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.PostDiscoveryFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Oracular's warm JVM: compiles scratch test classes in-process and runs chosen test methods.
 *
 * <p>Why a long-lived helper: starting a JVM and warming up javac costs more than a whole check
 * of five candidates once both are warm, so Python keeps one of these per workspace (per core
 * for mutation analysis) and talks to it over stdin/stdout with a line protocol (see
 * {@code oracular/execution/jvm.py}). Tests run through the JUnit Platform launcher with the
 * Jupiter and Vintage engines, so JUnit 5, 4 and 3 classes all run; each RUN gets a fresh class
 * loader, so a mutant's classes never leak into the next run.
 *
 * <p>Test code cannot corrupt the protocol: it has a pipe of its own, System.out/err are
 * swallowed while tests run, System.exit is refused, and a watchdog stops a test that overruns
 * its time limit (and halts the JVM if the test will not stop; Python then restarts it). After
 * each run the processes the tests started are killed and their threads stopped; a thread that
 * will not stop is reported (DIRTY), and Python restarts the helper before the next run.
 */
public final class Runner {
    private static PrintStream protocol;
    private static final PrintStream SINK = new PrintStream(OutputStream.nullOutputStream());
    private static volatile boolean exitAllowed = true;

    private Runner() {}

    public static void main(String[] args) throws Exception {
        // The protocol's own pipe where Python gave one: what a test writes to the process's
        // stdout (FileDescriptor.out, a child process) then never reads as an answer.
        String channel = System.getProperty("oracular.protocol");
        protocol = new PrintStream(channel == null ? new FileOutputStream(FileDescriptor.out)
                : new FileOutputStream(channel), true, "UTF-8");
        System.setOut(SINK);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Launcher launcher = LauncherFactory.create(LauncherConfig.builder()
                .enableTestEngineAutoRegistration(false)
                .enableTestExecutionListenerAutoRegistration(false)
                .addTestEngines(new org.junit.jupiter.engine.JupiterTestEngine(),
                        new org.junit.vintage.engine.VintageTestEngine())
                .build());
        send("READY\t" + System.getProperty("java.version"));
        String line;
        while ((line = in.readLine()) != null) {
            switch (line) {
                case "COMPILE" -> compile(readBlock(in));
                case "RUN" -> run(launcher, readBlock(in));
                case "PING" -> send("PONG");
                case "QUIT" -> Runtime.getRuntime().halt(0);
                default -> send("ERROR\tunknown command " + escape(line));
            }
        }
        Runtime.getRuntime().halt(0);
    }

    private static synchronized void send(String line) {
        protocol.println(line);
    }

    /** Lines up to END, as key/value pairs split at the first space. */
    private static List<String[]> readBlock(BufferedReader in) throws IOException {
        List<String[]> block = new ArrayList<>();
        String line;
        while ((line = in.readLine()) != null && !line.equals("END")) {
            int space = line.indexOf(' ');
            block.add(space < 0 ? new String[] {line, ""} : new String[] {line.substring(0, space), line.substring(space + 1)});
        }
        return block;
    }

    static String escape(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    // -- compiling ---------------------------------------------------------------------------
    private static void compile(List<String[]> block) {
        long start = System.nanoTime();
        List<String> options = new ArrayList<>();
        List<String> classpath = new ArrayList<>();
        List<String> sourcepath = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        String out = null;
        for (String[] kv : block) {
            switch (kv[0]) {
                case "OUT" -> out = kv[1];
                case "CP" -> classpath.add(kv[1]);
                case "SP" -> sourcepath.add(kv[1]);
                case "OPT" -> options.add(kv[1]);
                case "SRC" -> sources.add(kv[1]);
                default -> { }
            }
        }
        boolean ok = false;
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            send("DIAG\tERROR\t-1\t-1\t\tno Java compiler in this runtime (a JRE, not a JDK)");
        } else {
            DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
            // The file manager reads the sources: it takes -encoding, which javac's options would
            // not pass on to a file manager made here.
            java.nio.charset.Charset charset = StandardCharsets.UTF_8;
            int at = options.indexOf("-encoding");
            if (at >= 0 && at + 1 < options.size()) {
                try {
                    charset = java.nio.charset.Charset.forName(options.get(at + 1));
                } catch (IllegalArgumentException unknown) {
                    send("DIAG\tERROR\t-1\t-1\t\t" + escape("unknown encoding " + options.get(at + 1)));
                }
                options.remove(at + 1);
                options.remove(at);
            }
            try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ENGLISH, charset)) {
                if (out != null) {
                    new File(out).mkdirs();
                    options.add("-d");
                    options.add(out);
                }
                options.add("-classpath");
                options.add(String.join(File.pathSeparator, classpath));
                if (!sourcepath.isEmpty()) {
                    options.add("-sourcepath");
                    options.add(String.join(File.pathSeparator, sourcepath));
                }
                Iterable<? extends JavaFileObject> units = files.getJavaFileObjectsFromStrings(sources);
                ok = javac.getTask(new StringWriter(), files, diagnostics, options, null, units).call();
                for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                    if (d.getKind() != Diagnostic.Kind.ERROR) {
                        continue;
                    }
                    String file = d.getSource() == null ? "" : d.getSource().toUri().getPath();
                    send("DIAG\tERROR\t" + d.getLineNumber() + "\t" + d.getColumnNumber() + "\t" + escape(file)
                            + "\t" + escape(d.getMessage(Locale.ENGLISH)));
                }
            } catch (Throwable t) {  // a bad option or a compiler crash is an answer, not a dead helper
                send("DIAG\tERROR\t-1\t-1\t\t" + escape(t.toString()));
                ok = false;
            }
        }
        send("COMPILED\t" + (ok ? 1 : 0) + "\t" + (System.nanoTime() - start) / 1_000_000);
    }

    // -- running -----------------------------------------------------------------------------
    private static final class Watchdog extends Thread {
        final Thread worker;
        volatile String current;
        volatile long deadline = Long.MAX_VALUE;
        volatile String timedOut;
        volatile boolean finished;

        Watchdog(Thread worker) {
            super("oracular-watchdog");
            this.worker = worker;
            setDaemon(true);
        }

        @SuppressWarnings({"deprecation", "removal"})
        @Override
        public void run() {
            while (!finished) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
                String test = current;
                if (test == null || System.nanoTime() < deadline) {
                    continue;
                }
                timedOut = test;
                long stoppedAt = System.nanoTime();
                try {
                    worker.stop();
                } catch (Throwable unsupported) {
                    // Thread.stop is gone on newer JDKs: the JVM is halted below instead.
                }
                while (!finished && current == test && System.nanoTime() - stoppedAt < 2_000_000_000L) {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (!finished && current == test) {
                    String[] parts = test.split("\t", 2);
                    send("RESULT\t" + parts[0] + "\t" + parts[1] + "\tTIMEOUT\t-1\t\ttest did not stop\t\t");
                    send("CRASH\ta test did not stop after its time limit");
                    exitAllowed = true;
                    Runtime.getRuntime().halt(3);
                }
            }
        }
    }

    /**
     * The JVM-wide settings a test may change and any later code in this JVM would read: the
     * system properties, the default locales and time zone, the standard streams, the security
     * providers, the net's default handlers (cookies, proxies, response cache, authenticator), the
     * default uncaught-exception handler and the test thread's context class loader.
     *
     * <p>Why: the helper outlives its runs and runs the prefixes of many files, in an order no
     * build shares. A prefix that sets {@code Locale.setDefault(Locale.GERMANY)}, a system property
     * or a {@code CookieHandler} would otherwise change what every later prefix observes: values
     * that depend on what the helper ran before, and oracles that fail when the test runs in its
     * build. Restored after each test (to the state its class set up before it) and after each run
     * (to the helper's own).
     */
    private static final class GlobalState {
        private final java.util.Properties properties = (java.util.Properties) System.getProperties().clone();
        private final Locale locale = Locale.getDefault();
        private final Locale display = Locale.getDefault(Locale.Category.DISPLAY);
        private final Locale format = Locale.getDefault(Locale.Category.FORMAT);
        private final java.util.TimeZone zone = java.util.TimeZone.getDefault();
        private final java.io.InputStream in = System.in;
        private final PrintStream out = System.out;
        private final PrintStream err = System.err;
        private final java.security.Provider[] providers = java.security.Security.getProviders();
        private final java.net.CookieHandler cookies = java.net.CookieHandler.getDefault();
        private final java.net.ProxySelector proxies = java.net.ProxySelector.getDefault();
        private final java.net.ResponseCache responses = java.net.ResponseCache.getDefault();
        private final java.net.Authenticator authenticator = java.net.Authenticator.getDefault();
        private final Thread.UncaughtExceptionHandler uncaught = Thread.getDefaultUncaughtExceptionHandler();
        private final ClassLoader context = Thread.currentThread().getContextClassLoader();

        void restore() {
            System.setProperties((java.util.Properties) properties.clone());
            Locale.setDefault(locale);
            Locale.setDefault(Locale.Category.DISPLAY, display);
            Locale.setDefault(Locale.Category.FORMAT, format);
            java.util.TimeZone.setDefault(zone);
            System.setIn(in);
            System.setOut(out);
            System.setErr(err);
            restoreProviders();
            java.net.CookieHandler.setDefault(cookies);
            java.net.ProxySelector.setDefault(proxies);
            java.net.ResponseCache.setDefault(responses);
            java.net.Authenticator.setDefault(authenticator);
            Thread.setDefaultUncaughtExceptionHandler(uncaught);
            Thread.currentThread().setContextClassLoader(context);
        }

        /** The providers as they were, in their order: added ones removed, removed ones put back. */
        private void restoreProviders() {
            java.security.Provider[] now = java.security.Security.getProviders();
            if (java.util.Arrays.equals(now, providers)) {
                return;
            }
            for (java.security.Provider p : now) {
                java.security.Security.removeProvider(p.getName());
            }
            for (java.security.Provider p : providers) {
                java.security.Security.addProvider(p);
            }
        }
    }

    private static final class Listener implements TestExecutionListener {
        final Watchdog watchdog;
        final java.util.Map<String, Long> timeouts;
        final long defaultTimeout;
        /** The class a test was run on (a concrete subclass) -> the class the request named. */
        final java.util.Map<String, String> runOn;
        long started;
        GlobalState before;
        /** The classes run (the class run on) -> the names of the tests asked for. */
        final java.util.Map<String, java.util.Set<String>> wanted;
        /** JUnit 4 classes whose runner renames its tests, so that selecting a method found none. */
        final java.util.Set<String> unmatched = new java.util.LinkedHashSet<>();

        Listener(Watchdog watchdog, java.util.Map<String, Long> timeouts, long defaultTimeout,
                java.util.Map<String, String> runOn, java.util.Map<String, java.util.Set<String>> wanted) {
            this.watchdog = watchdog;
            this.timeouts = timeouts;
            this.defaultTimeout = defaultTimeout;
            this.runOn = runOn;
            this.wanted = wanted;
        }

        private String key(TestIdentifier id) {
            TestSource source = id.getSource().orElse(null);
            String[] test = known(source, id.getDisplayName(), () -> UniqueId.parse(id.getUniqueId()));
            // Known by a class alone (no method): only the tests of the classes asked for.
            if (test == null || !(source instanceof MethodSource) && !(id.isTest() && wanted.containsKey(test[0]))) {
                return null;
            }
            return runOn.getOrDefault(test[0], test[0]) + "\t" + test[1];
        }

        @Override
        public void executionStarted(TestIdentifier id) {
            String key = key(id);
            if (!id.isTest() || key == null) {
                return;
            }
            before = new GlobalState();
            started = System.nanoTime();
            long limit = timeouts.getOrDefault(key, defaultTimeout);
            watchdog.deadline = started + limit * 1_000_000L;
            watchdog.current = key;
        }

        @Override
        public void executionSkipped(TestIdentifier id, String reason) {
            String key = key(id);
            // A skipped container (a @Disabled class) reports nothing: Python marks its methods not run.
            if (key != null && id.isTest()) {
                send("RESULT\t" + key + "\tSKIPPED\t0\t\t" + escape(reason) + "\t\t");
            }
        }

        @Override
        public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            String key = key(id);
            if (!id.isTest() || key == null) {
                String renamed = renamedRunner(id, result);
                if (renamed != null) {
                    unmatched.add(renamed);
                } else {
                    classFailed(id, result, runOn);
                }
                return;
            }
            long millis = (System.nanoTime() - started) / 1_000_000;
            String timedOut = watchdog.timedOut;
            watchdog.current = null;
            watchdog.deadline = Long.MAX_VALUE;
            if (before != null) {
                before.restore();
            }
            if (key.equals(timedOut)) {
                watchdog.timedOut = null;
                send("RESULT\t" + key + "\tTIMEOUT\t" + millis + "\t\t\t\t");
                return;
            }
            String status = switch (result.getStatus()) {
                case SUCCESSFUL -> "PASSED";
                case ABORTED -> "ABORTED";
                case FAILED -> "FAILED";
            };
            Throwable t = result.getThrowable().orElse(null);
            String type = t == null ? "" : Observe.nameable(t.getClass());
            if (t != null) {
                Observe.ancestry(t.getClass());
            }
            String message = t == null ? "" : String.valueOf(t.getMessage());
            send("RESULT\t" + key + "\t" + status + "\t" + millis + "\t" + escape(type) + "\t" + escape(message)
                    + "\t" + escape(actual(t)) + "\t" + escape(trace(t)));
        }
    }

    /**
     * A method's own name, without what a runner adds to it: JUnit 4 Parameterized's {@code name[0]},
     * a seed a runner appends ({@code name {seed=[C0FFEE]}}).
     */
    static String ownName(String method) {
        int end = 0;
        while (end < method.length() && Character.isJavaIdentifierPart(method.charAt(end))) {
            end++;
        }
        return end > 0 ? method.substring(0, end) : method;
    }

    /**
     * The JUnit 4 class whose method selection found nothing (Vintage's "No tests found matching
     * Method ..."), as a runner that renames its tests makes it ({@code name {seed=[C0FFEE]}});
     * {@code null} for anything else.
     */
    private static String renamedRunner(TestIdentifier id, TestExecutionResult result) {
        Throwable t = result.getThrowable().orElse(null);
        String parent = id.getParentId().orElse("");
        int at = parent.lastIndexOf("[runner:");
        if (t == null || at < 0 || !String.valueOf(t.getMessage()).startsWith("No tests found matching")) {
            return null;
        }
        int end = parent.indexOf(']', at);
        return end < 0 ? null : parent.substring(at + "[runner:".length(), end);
    }

    /**
     * A test class that failed around its tests (a {@code @BeforeClass} or class rule that threw, a
     * class JUnit cannot use): JUnit then reports nothing for the tests it never ran, and without
     * this line they could only be said "not run".
     */
    private static void classFailed(TestIdentifier id, TestExecutionResult result, java.util.Map<String, String> runOn) {
        Throwable t = result.getThrowable().orElse(null);
        Optional<TestSource> source = id.getSource();
        if (t == null || source.isEmpty() || !(source.get() instanceof ClassSource c)) {
            return;
        }
        String cls = runOn.getOrDefault(c.getClassName(), c.getClassName());
        send("CLASS\t" + cls + "\t" + escape(Observe.nameable(t.getClass())) + "\t"
                + escape(String.valueOf(t.getMessage())));
    }

    /** The observed value an assertion error carries, when its type records one. */
    private static String actual(Throwable t) {
        if (t == null) {
            return "";
        }
        try {
            if (t instanceof org.opentest4j.AssertionFailedError f && f.isActualDefined()) {
                Object value = f.getActual().getValue();
                if (value instanceof String s) {
                    return "=" + Observe.stringLiteral(s);
                }
                if (value instanceof Character c) {
                    return "=" + Observe.charLiteral(c);
                }
                return "=" + f.getActual().getStringRepresentation();
            }
            Method getter = t.getClass().getMethod("getActual");  // JUnit 4/3 ComparisonFailure: strings
            Object value = getter.invoke(t);
            return value == null ? "" : "=" + Observe.stringLiteral(String.valueOf(value));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return "";
        }
    }

    private static String trace(Throwable t) {
        if (t == null) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        StackTraceElement[] frames = t.getStackTrace();
        for (int i = 0; i < Math.min(8, frames.length); i++) {
            String frame = frames[i].toString();
            if (frame.startsWith("java.base/jdk.internal.reflect") || frame.startsWith("org.junit.platform")) {
                break;  // the rest is the test framework calling the test
            }
            b.append(frame).append('\n');
        }
        return b.toString();
    }

    private static void run(Launcher launcher, List<String[]> block) {
        long start = System.nanoTime();
        List<URL> urls = new ArrayList<>();
        List<String[]> tests = new ArrayList<>();
        java.util.Map<String, String> runOn = new java.util.HashMap<>();
        java.util.Map<String, Long> timeouts = new java.util.HashMap<>();
        long defaultTimeout = 10_000;
        for (String[] kv : block) {
            switch (kv[0]) {
                case "CP" -> {
                    try {
                        urls.add(new File(kv[1]).toURI().toURL());
                    } catch (IOException e) {
                        send("ERROR\tbad classpath entry " + escape(kv[1]));
                    }
                }
                case "TIMEOUT" -> defaultTimeout = Long.parseLong(kv[1].trim());
                case "TEST" -> {
                    String[] parts = kv[1].split("\t");
                    tests.add(parts);
                    if (parts.length > 2) {
                        timeouts.put(parts[0] + "\t" + parts[1], Long.parseLong(parts[2]));
                    }
                }
                default -> { }
            }
        }
        Observe.reset();
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        PrintStream err = System.err;
        Watchdog watchdog = new Watchdog(Thread.currentThread());
        java.util.Set<Thread> before = new java.util.HashSet<>(Thread.getAllStackTraces().keySet());
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), Runner.class.getClassLoader())) {
            Thread.currentThread().setContextClassLoader(loader);
            List<DiscoverySelector> selectors = new ArrayList<>();
            java.util.Map<String, java.util.Set<String>> wanted = new java.util.HashMap<>();
            for (String[] test : tests) {
                try {
                    Class<?> cls = Class.forName(test[0], false, loader);
                    Method found = null;
                    for (Method m : cls.getDeclaredMethods()) {
                        if (m.getName().equals(test[1])) {
                            found = m;
                            break;
                        }
                    }
                    if (found == null) {
                        send("RESULT\t" + test[0] + "\t" + test[1] + "\tNOTFOUND\t0\t\tno such method\t\t");
                        continue;
                    }
                    // An abstract test class's methods run on a concrete subclass (4th field).
                    Class<?> on = test.length > 3 && !test[3].isEmpty() ? Class.forName(test[3], false, loader) : cls;
                    if (on != cls) {
                        runOn.put(on.getName(), test[0]);
                    }
                    selectors.add(DiscoverySelectors.selectMethod(on, found));
                    wanted.computeIfAbsent(on.getName(), k -> new java.util.HashSet<>()).add(test[1]);
                } catch (Throwable t) {
                    send("RESULT\t" + test[0] + "\t" + test[1] + "\tNOTFOUND\t0\t" + escape(t.getClass().getName())
                            + "\t" + escape(String.valueOf(t.getMessage())) + "\t\t");
                }
            }
            if (!selectors.isEmpty()) {
                LauncherDiscoveryRequest request = request(selectors).build();
                System.setErr(SINK);
                System.setOut(SINK);
                installExitGuard();
                GlobalState initial = new GlobalState();
                watchdog.start();
                try {
                    Listener listener = new Listener(watchdog, timeouts, defaultTimeout, runOn, wanted);
                    launcher.execute(request, listener);
                    if (!listener.unmatched.isEmpty()) {
                        launcher.execute(renamedRequest(listener.unmatched, wanted, loader), listener);
                    }
                } catch (ThreadDeath stopped) {
                    send("ERROR\tthe run was stopped outside a test (time limit)");
                } catch (Throwable t) {
                    // JUnit rethrows what it deems unrecoverable (OutOfMemoryError): the test
                    // running then failed with it.
                    String test = watchdog.current;
                    if (test != null) {
                        send("RESULT\t" + test + "\tFAILED\t-1\t" + escape(t.getClass().getName()) + "\t"
                                + escape(String.valueOf(t.getMessage())) + "\t\t");
                    }
                    send("ERROR\t" + escape(t.toString()));
                } finally {
                    watchdog.finished = true;
                    initial.restore();
                    exitAllowed = true;
                    System.setErr(err);
                    System.setOut(SINK);
                }
            }
        } catch (IOException e) {
            send("ERROR\t" + escape(e.toString()));
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
        for (String line : Observe.drain()) {
            send(line);
        }
        cleanUp(before);
        send("DONE\t" + (System.nanoTime() - start) / 1_000_000);
    }

    /**
     * The wanted tests of classes whose runner renames them: each class selected whole, its tests
     * kept by their own name, for the runner to filter (Vintage hands the platform's filter on).
     */
    private static LauncherDiscoveryRequest renamedRequest(java.util.Set<String> classes,
            java.util.Map<String, java.util.Set<String>> wanted, ClassLoader loader) throws ClassNotFoundException {
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (String name : classes) {
            selectors.add(DiscoverySelectors.selectClass(Class.forName(name, false, loader)));
        }
        PostDiscoveryFilter own = descriptor -> {
            String[] test = descriptor.isTest()
                    ? known(descriptor.getSource().orElse(null), descriptor.getDisplayName(), descriptor::getUniqueId)
                    : null;
            return test == null ? FilterResult.included("a container")
                    : FilterResult.includedIf(wanted.getOrDefault(test[0], java.util.Set.of()).contains(test[1]));
        };
        return request(selectors).filters(own).build();
    }

    /**
     * The class and own name a test is known by: its method's; else its class's and its display
     * name, where a runner renamed it so that Vintage found no method; else, with no source at all,
     * the class its unique id names ({@link #describedClass}). {@code null} for none.
     */
    private static String[] known(TestSource source, String displayName,
            java.util.function.Supplier<UniqueId> id) {
        if (source instanceof MethodSource m) {
            return new String[] {m.getClassName(), ownName(m.getMethodName())};
        }
        String cls = source instanceof ClassSource c ? c.getClassName() : source == null ? describedClass(id.get()) : null;
        return cls == null ? null : new String[] {cls, ownName(displayName)};
    }

    /**
     * The class of a Vintage test that has no source: a JUnit 4 runner describing its tests by class
     * name (carrotsearch's RandomizedRunner) leaves Vintage no class to name, since JUnit 4's own
     * loader, the helper's, cannot load the tests' classes; the test's unique id still ends in
     * JUnit 4's display name, {@code [test:adds {seed=[C0FFEE]}(demo.RenamedTest)]}.
     */
    private static String describedClass(UniqueId id) {
        UniqueId.Segment last = id.getLastSegment();
        String value = last.getValue();
        int open = value.lastIndexOf('(');
        if (!last.getType().equals("test") || open < 0 || !value.endsWith(")")) {
            return null;
        }
        return value.substring(open + 1, value.length() - 1);
    }

    /** A run of the selected tests in this helper: one thread, no extensions loaded by service. */
    private static LauncherDiscoveryRequestBuilder request(List<DiscoverySelector> selectors) {
        return LauncherDiscoveryRequestBuilder.request()
                .selectors(selectors)
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "false")
                .configurationParameter("junit.jupiter.execution.parallel.enabled", "false");
    }

    /** What the run's tests left behind: processes killed, threads stopped, CPU time reported. */
    @SuppressWarnings({"deprecation", "removal"})
    private static void cleanUp(java.util.Set<Thread> before) {
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
        List<Thread> left = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (!before.contains(t) && t.isAlive() && !t.isDaemon()) {
                t.interrupt();
                left.add(t);
            }
        }
        int stuck = 0;
        for (Thread t : left) {
            try {
                t.join(200);
                if (t.isAlive()) {
                    try {
                        t.stop();
                    } catch (Throwable unsupported) {
                        // Thread.stop is gone on newer JDKs: Python restarts the helper instead.
                    }
                    t.join(300);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            stuck += t.isAlive() ? 1 : 0;
        }
        if (stuck > 0) {
            send("DIRTY\t" + stuck + " thread(s) started by the tests did not stop; the helper restarts");
        }
        // Not the OperatingSystemMXBean: JDK 17 cannot read a cgroup v1 from inside a cgroup namespace.
        ProcessHandle.current().info().totalCpuDuration().ifPresent(cpu -> send("CPU\t" + cpu.toMillis()));
    }

    @SuppressWarnings({"deprecation", "removal"})
    private static void installExitGuard() {
        exitAllowed = false;
        if (System.getSecurityManager() != null) {
            return;
        }
        try {
            System.setSecurityManager(new SecurityManager() {
                @Override
                public void checkPermission(Permission perm) {
                }

                @Override
                public void checkPermission(Permission perm, Object context) {
                }

                @Override
                public void checkExit(int status) {
                    if (!exitAllowed) {
                        throw new SecurityException("System.exit(" + status + ") refused while testing");
                    }
                }
            });
        } catch (UnsupportedOperationException | SecurityException unsupported) {
            // JDK 18+ without -Djava.security.manager=allow: a test calling System.exit ends the
            // JVM, which Python reports as a crash of that test.
        }
    }
}
