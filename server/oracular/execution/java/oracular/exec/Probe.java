package oracular.exec;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Tells whether a method's run left a trace an extreme mutant would not: Reneri's infection.
 *
 * <p>Why: a mutant that survives a test either changed nothing where the method returned (no
 * infection), or changed the state but nothing the test reads (no propagation), or changed what
 * the test could read and the test did not check (a weak oracle). The probe tells the first
 * apart: a copy of the class wraps the original method, takes the state of the receiver and the
 * arguments before and after the call ({@link #state}), compares the result with what each
 * extreme mutant would return, and records {@code infected(key)} when they differ. The records
 * go back with the RUN answer, as {@link Observe}'s do. It also records that the method ran at all
 * ({@link #called}): a test that calls it in its source may not reach the call, or reach another
 * overload.
 *
 * <p>The state is read by reflection to a bounded depth: primitives, strings, enums and boxed
 * values as text; arrays, collections and maps element by element; the JDK's other objects by
 * their {@code toString}; other objects field by field (static fields left out, but a static
 * method's class's are its state: {@link #statics}); and the system properties.
 */
public final class Probe {
    private static final int DEPTH = 4;
    private static final int MAX_ELEMENTS = 64;

    private Probe() {}

    /** The state of {@code parts} (the receiver first, then the arguments), as comparable text. */
    public static String state(Object... parts) {
        StringBuilder out = new StringBuilder();
        IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
        for (Object part : parts) {
            describe(part, DEPTH, seen, out);
            out.append('|');
        }
        // The JVM's own global state a method may set (xmlunit's setControlParser names the
        // parser factory in a system property).
        return out.append(System.getProperties().hashCode()).toString();
    }

    /**
     * The static fields of {@code c} and its superclasses, read as {@link #state} reads fields: what
     * a static method changes (a setter of a global option). As text, so that {@link #state} compares
     * it as it is.
     */
    public static String statics(Class<?> c) {
        StringBuilder out = new StringBuilder();
        IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) {
                    continue;
                }
                out.append(f.getName()).append('=');
                try {
                    f.setAccessible(true);
                    describe(f.get(null), DEPTH, seen, out);
                } catch (RuntimeException | IllegalAccessException | LinkageError e) {
                    out.append('?');
                }
                out.append(';');
            }
        }
        return out.toString();
    }

    /** The wrapped method ran: the test executes it (its calls were found statically). */
    public static void called(String key) {
        Observe.value(key, true);
    }

    /** The original and an extreme mutant differ here: recorded once per key and RUN. */
    public static void infected(String key) {
        Observe.value(key, true);
    }

    private static boolean plain(Object o) {
        return o instanceof Number || o instanceof Boolean || o instanceof Character
                || o instanceof CharSequence && o.getClass().getName().startsWith("java.")
                || o instanceof Enum || o instanceof Class;
    }

    private static void describe(Object o, int depth, IdentityHashMap<Object, Boolean> seen, StringBuilder out) {
        if (o == null) {
            out.append("null");
            return;
        }
        Class<?> c = o.getClass();
        if (plain(o)) {
            out.append(c.getSimpleName()).append(':').append(o);
            return;
        }
        if (depth == 0 || seen.put(o, Boolean.TRUE) != null) {
            out.append(c.getName()).append("@seen");
            return;
        }
        if (c.isArray()) {
            int n = Array.getLength(o);
            out.append('[').append(n).append(':');
            for (int i = 0; i < Math.min(n, MAX_ELEMENTS); i++) {
                describe(Array.get(o, i), depth - 1, seen, out);
                out.append(',');
            }
            out.append(']');
        } else if (o instanceof Collection) {
            describeAll(((Collection<?>) o).toArray(), depth, seen, out.append(c.getSimpleName()));
        } else if (o instanceof Map) {
            out.append(c.getSimpleName()).append('{');
            int i = 0;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
                if (i++ == MAX_ELEMENTS) {
                    break;
                }
                describe(e.getKey(), depth - 1, seen, out);
                out.append('=');
                describe(e.getValue(), depth - 1, seen, out);
                out.append(',');
            }
            out.append('}');
        } else if (c.getName().startsWith("java.") || c.getName().startsWith("javax.")) {
            out.append(c.getName()).append(':').append(safeString(o));
        } else {
            describeFields(o, c, depth, seen, out);
        }
    }

    private static void describeAll(Object[] items, int depth, IdentityHashMap<Object, Boolean> seen, StringBuilder out) {
        out.append('[').append(items.length).append(':');
        for (int i = 0; i < Math.min(items.length, MAX_ELEMENTS); i++) {
            describe(items[i], depth - 1, seen, out);
            out.append(',');
        }
        out.append(']');
    }

    private static void describeFields(Object o, Class<?> c, int depth, IdentityHashMap<Object, Boolean> seen, StringBuilder out) {
        out.append(c.getName()).append('{');
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) {
                    continue;
                }
                out.append(f.getName()).append('=');
                try {
                    f.setAccessible(true);
                    describe(f.get(o), depth - 1, seen, out);
                } catch (RuntimeException | IllegalAccessException e) {
                    out.append('?');
                }
                out.append(';');
            }
        }
        out.append('}');
    }

    private static String safeString(Object o) {
        try {
            return String.valueOf(o);
        } catch (RuntimeException e) {
            return "?";
        }
    }
}
