package org.example.stack;

import java.util.Objects;

/**
 * Static helper methods for working with strings.
 */
public final class TextUtils {

    private static final String VOWELS = "aeiouAEIOU";

    private TextUtils() {
        // utility class, not instantiable
    }

    /**
     * Returns the characters of a string in reverse order.
     *
     * @param s the string to reverse
     * @return a new string with the characters of {@code s} in reverse order
     * @throws NullPointerException if s is null
     */
    public static String reverse(String s) {
        Objects.requireNonNull(s, "s");
        return new StringBuilder(s).reverse().toString();
    }

    /**
     * Tests whether a string reads the same forwards and backwards.
     * The comparison is case-sensitive; {@code null} is not a palindrome.
     *
     * @param s the string to test; may be {@code null}
     * @return {@code true} if {@code s} is non-null and equal to its reverse, {@code false} otherwise
     */
    public static boolean isPalindrome(String s) {
        if (s == null) {
            return false;
        }
        return s.equals(reverse(s));
    }

    /**
     * Counts the vowels (a, e, i, o, u, in either case) in a string.
     *
     * @param s the string to examine; may be {@code null}
     * @return the number of vowels in {@code s}, or {@code 0} if {@code s} is {@code null}
     */
    public static int countVowels(String s) {
        if (s == null) {
            return 0;
        }
        int count = 0;
        for (int i = 0; i < s.length(); i++) {
            if (VOWELS.indexOf(s.charAt(i)) >= 0) {
                count++;
            }
        }
        return count;
    }
}
