package oracular.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Records the value an expression has on the current code, as Java source that recreates it.
 *
 * <p>Why: the regression-oracle baseline asserts that a test's target keeps the value it has
 * now (what EvoSuite and Randoop write). A scratch test calls {@code Observe.value("key", expr)}
 * after its prefix; the overload chosen at compile time keeps the static primitive type, so
 * {@code 5} and {@code 5L} stay distinct. The records go back to Python with the RUN answer.
 */
public final class Observe {
    private static final List<String> RECORDS = new ArrayList<>();
    private static final int MAX_LITERAL = 2000;
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
        record(key, "thrown", t.getClass().getName(), String.valueOf(t.getMessage()));
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
        } else if (v.getClass().isArray()) {
            recordString(key, "array", type, Arrays.deepToString(new Object[] {v}));
        } else if (v instanceof Enum<?>) {
            recordString(key, "string", type, String.valueOf(v));
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
