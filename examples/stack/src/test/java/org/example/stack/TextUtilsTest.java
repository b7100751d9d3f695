package org.example.stack;

import org.junit.jupiter.api.Test;

/**
 * Tests for {@link TextUtils}. None of these tests has an oracle.
 */
class TextUtilsTest {

    @Test
    void testReverse() {
        String r = TextUtils.reverse("abc");
    }

    @Test
    void testReverseNull() {
        TextUtils.reverse(null);
    }

    @Test
    void testIsPalindrome() {
        boolean p = TextUtils.isPalindrome("level");
    }

    @Test
    void testCountVowels() {
        int n = TextUtils.countVowels("oracle");
    }
}
