package org.example.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Tests for {@link Stack}. Most of these tests are deliberately missing
 * their oracle (they exercise the code but assert nothing); the last two
 * show what a test with an oracle looks like.
 */
class StackTest {

    @Test
    void testPushPopIsEmpty() {
        Stack<Integer> s = new Stack<>();
        int a = 1;
        s.push(a);
        s.pop();
        boolean empty = s.isEmpty();
    }

    @Test
    void testPopOnEmptyStack() {
        Stack<Integer> s = new Stack<>();
        s.pop();
    }

    @Test
    void testPushTwoPeek() {
        Stack<Integer> s = new Stack<>();
        s.push(1);
        s.push(2);
        int top = s.peek();
    }

    @Test
    void testPushSize() {
        Stack<String> s = new Stack<>();
        s.push("x");
        s.size();
    }

    @Test
    void testPushThreePopOnce() {
        Stack<Integer> s = new Stack<>();
        s.push(1);
        s.push(2);
        s.push(3);
        s.pop();
    }

    @Test
    void testPushOntoNewStack() {
        Stack<String> s = new Stack<>(Stack.DEFAULT_CAPACITY);
        s.push("hello");
    }

    @Test
    void testPeekReturnsLastPushed() {
        Stack<Integer> s = new Stack<>();
        s.push(7);
        s.push(8);
        assertEquals(8, s.peek());
    }

    @Test
    void testPopReducesSize() {
        Stack<Integer> s = new Stack<>();
        s.push(1);
        s.push(2);
        s.pop();
        assertSize(s, 1);
    }

    private void assertSize(Stack<?> s, int n) {
        assertEquals(n, s.size());
    }
}
