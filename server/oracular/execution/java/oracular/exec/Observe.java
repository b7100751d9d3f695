package oracular.exec;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Records the value an expression has on the current code, as Java source that recreates it.
 *
 * <p>Why: values the code really produces are the strongest oracle candidates, and the regression
 * baseline asserts that a test's target keeps the value it has now (what EvoSuite and Randoop
 * write). A scratch test calls {@code Observe.value("key", expr)} after its prefix; the overload
 * chosen at compile time keeps the static primitive type, so {@code 5} and {@code 5L} stay
 * distinct. The records go back to Python with the RUN answer.
 *
 * <p>Kinds: {@code boolean}, {@code literal} (numbers, {@code char}, {@code String}, with exact Java
 * escapes; NaN and the infinities as constants), {@code enum} (type = the enum's canonical name,
 * payload = the constant), {@code class} (payload = canonical name), {@code array} (payload = a
 * one-dimensional array creation, {@code new int[] {1, 2}}), {@code list} (a {@code java.util.List}
 * whose elements are all literals: payload = the elements, comma-separated), {@code string} (an
 * object whose class overrides {@code toString}: payload = that text as a literal), {@code null},
 * {@code object} (anything else: only "not null" is known) and {@code thrown}.
 */
public final class Observe {
    private static final List<String> RECORDS = new ArrayList<>();
    private static final int MAX_LITERAL = 2000;
    private static final int MAX_ELEMENTS = 16;
    private static final Pattern IDENTITY = Pattern.compile(".*@[0-9a-f]{4,}$", Pattern.DOTALL);

    private Observe() {}

    static synchronized void reset() {
        RECORDS.clear();
    }

    static synchronized List<String> drain() {
        List<String> copy = new ArrayList<>(RECORDS);
        RECORDS.clear();
        return copy;
    }

    private static synchronized void record(String key, String kind, String type, String payload) {
        RECORDS.add("OBS\t" + Runner.escape(key) + "\t" + kind + "\t" + Runner.escape(type) + "\t" + Runner.escape(payload));
    }

    public static void value(String key, boolean v) {
        record(key, "boolean", "boolean", Boolean.toString(v));
    }

    public static void value(String key, int v) {
        record(key, "literal", "int", Integer.toString(v));
    }

    public static void value(String key, long v) {
        record(key, "literal", "long", v + "L");
    }

    public static void value(String key, short v) {
        record(key, "literal", "short", "(short) " + v);
    }

    public static void value(String key, byte v) {
        record(key, "literal", "byte", "(byte) " + v);
    }

    public static void value(String key, char v) {
        record(key, "literal", "char", charLiteral(v));
    }

    public static void value(String key, float v) {
        record(key, "literal", "float", floatLiteral(v));
    }

    public static void value(String key, double v) {
        record(key, "literal", "double", doubleLiteral(v));
    }

    /** The target could not be evaluated: its evaluation threw. */
    public static void thrown(String key, Throwable t) {
        record(key, "thrown", nameable(t.getClass()), String.valueOf(t.getMessage()));
        ancestry(t.getClass());
    }

    /**
     * Records the superclasses of a thrown class (as {@link #nameable} names it), nearest first:
     * {@code assertThrows(IndexOutOfBoundsException.class, ...)} holds when the code throws
     * {@code ArrayIndexOutOfBoundsException}, which only the class hierarchy tells. A local class
     * comes first by its simple name: the test method declaring it catches it by that name.
     */
    static synchronized void ancestry(Class<?> thrown) {
        StringBuilder names = new StringBuilder();
        if (thrown.isLocalClass()) {
            names.append(thrown.getSimpleName());  // the method declaring it can name it
        }
        String named = nameable(thrown);
        for (Class<?> s = thrown.getSuperclass(); s != null && s != Object.class; s = s.getSuperclass()) {
            if (!s.getName().equals(named)) {
                names.append(names.length() == 0 ? "" : ",").append(s.getName());
            }
        }
        RECORDS.add("ANC\t" + Runner.escape(named) + "\t" + Runner.escape(names.toString()));
    }

    /**
     * The text's lines, as a suite's helper taking the expected lines is given them: split at the
     * platform's line separator, a trailing empty line kept (the engine offers
     * {@code assertHelpLines(lines...)} when {@code assertHelpLines(Observe.lines(text))} passes).
     */
    public static String[] lines(String text) {
        return text.split(java.util.regex.Pattern.quote(System.lineSeparator()), -1);
    }

    /**
     * The class a test can name for {@code c}: an anonymous or local class's nearest named
     * superclass. Commons-math 2's factories throw {@code new IllegalArgumentException() {...}},
     * whose class is {@code MathRuntimeException$4}: no catch or assertThrows can name it.
     */
    public static String nameable(Class<?> c) {
        while ((c.isAnonymousClass() || c.isLocalClass()) && c.getSuperclass() != null) {
            c = c.getSuperclass();
        }
        return c.getName();
    }

    public static void value(String key, Object v) {
        if (v == null) {
            record(key, "null", "null", "null");
            return;
        }
        String type = v.getClass().getName();
        if (v instanceof Boolean b) {
            record(key, "boolean", type, b.toString());
        } else if (v instanceof Integer i) {
            record(key, "literal", type, i.toString());
        } else if (v instanceof Long l) {
            record(key, "literal", type, l + "L");
        } else if (v instanceof Short s) {
            record(key, "literal", type, "(short) " + s);
        } else if (v instanceof Byte b) {
            record(key, "literal", type, "(byte) " + b);
        } else if (v instanceof Character c) {
            record(key, "literal", type, charLiteral(c));
        } else if (v instanceof Float f) {
            record(key, "literal", type, floatLiteral(f));
        } else if (v instanceof Double d) {
            record(key, "literal", type, doubleLiteral(d));
        } else if (v instanceof String s) {
            recordString(key, "literal", type, s);
        } else if (v instanceof Enum<?> e) {
            String enumType = e.getDeclaringClass().getCanonicalName();
            record(key, enumType == null ? "object" : "enum", enumType == null ? type : enumType, e.name());
        } else if (v instanceof Class<?> c) {
            String name = c.getCanonicalName();
            record(key, name == null ? "object" : "class", type, name == null ? "" : name);
        } else if (v.getClass().isArray()) {
            String created = arrayCreation(v);
            record(key, created == null ? "object" : "array", type, created == null ? "" : created);
        } else if (v instanceof List<?> list) {
            String elements = elements(list);
            record(key, elements == null ? "object" : "list", type, elements == null ? "" : elements);
        } else {
            String text;
            try {
                boolean own = v.getClass().getMethod("toString").getDeclaringClass() != Object.class;
                text = own ? String.valueOf(v) : null;
            } catch (ReflectiveOperationException | RuntimeException e) {
                text = null;
            }
            if (text == null || IDENTITY.matcher(text).matches()) {
                record(key, "object", type, "");
            } else {
                recordString(key, "string", type, text);
            }
        }
    }

    private static void recordString(String key, String kind, String type, String s) {
        if (s.length() > MAX_LITERAL) {
            record(key, "object", type, "");
        } else {
            record(key, kind, type, stringLiteral(s));
        }
    }

    /** {@code new int[] {1, 2}} for a small one-dimensional array of literals, else null. */
    static String arrayCreation(Object array) {
        Class<?> component = array.getClass().getComponentType();
        int length = Array.getLength(array);
        if (component.isArray() || length > MAX_ELEMENTS || component.getCanonicalName() == null) {
            return null;
        }
        List<Object> items = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            items.add(Array.get(array, i));
        }
        String inner;
        if (component.isPrimitive()) {
            StringBuilder b = new StringBuilder();
            for (Object item : items) {
                String literal = literal(item, component);
                if (literal == null) {
                    return null;
                }
                b.append(b.length() == 0 ? "" : ", ").append(literal);
            }
            inner = b.toString();
        } else {
            inner = elements(items);
        }
        if (inner == null || inner.length() > MAX_LITERAL) {
            return null;
        }
        return "new " + component.getCanonicalName() + "[] {" + inner + "}";
    }

    /** The elements as comma-separated literals, or null if one has no exact literal. */
    static String elements(List<?> list) {
        if (list.size() > MAX_ELEMENTS) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        for (Object item : list) {
            String literal = item == null ? "null" : literal(item, item.getClass());
            if (literal == null) {
                return null;
            }
            b.append(b.length() == 0 ? "" : ", ").append(literal);
        }
        return b.length() > MAX_LITERAL ? null : b.toString();
    }

    /** Java source for a boxed or primitive value or a String, typed as {@code type}; else null. */
    private static String literal(Object v, Class<?> type) {
        if (v instanceof String s) {
            return stringLiteral(s);
        }
        if (v instanceof Boolean b) {
            return b.toString();
        }
        if (v instanceof Character c) {
            return charLiteral(c);
        }
        if (v instanceof Integer i) {
            return i.toString();
        }
        if (v instanceof Long l) {
            return l + "L";
        }
        if (v instanceof Short s) {
            return type == short.class ? s.toString() : "(short) " + s;
        }
        if (v instanceof Byte b) {
            return type == byte.class ? b.toString() : "(byte) " + b;
        }
        if (v instanceof Float f) {
            return floatLiteral(f);
        }
        if (v instanceof Double d) {
            return doubleLiteral(d);
        }
        return null;
    }

    static String stringLiteral(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            b.append(escapeChar(s.charAt(i), '"'));
        }
        return b.append('"').toString();
    }

    static String charLiteral(char c) {
        return "'" + escapeChar(c, '\'') + "'";
    }

    private static String escapeChar(char c, char quote) {
        if (c == quote || c == '\\') {
            return "\\" + c;
        }
        return switch (c) {
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            case '\b' -> "\\b";
            case '\f' -> "\\f";
            default -> c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c);
        };
    }

    static String doubleLiteral(double d) {
        if (Double.isNaN(d)) {
            return "Double.NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Double.POSITIVE_INFINITY" : "Double.NEGATIVE_INFINITY";
        }
        return Double.toString(d);
    }

    static String floatLiteral(float f) {
        if (Float.isNaN(f)) {
            return "Float.NaN";
        }
        if (Float.isInfinite(f)) {
            return f > 0 ? "Float.POSITIVE_INFINITY" : "Float.NEGATIVE_INFINITY";
        }
        return Float.toString(f) + "f";
    }
}
