package org.example.stack;

import org.junit.jupiter.api.Test;

/**
 * Tests for {@link BoundedCounter}. None of these tests has an oracle.
 */
class BoundedCounterTest {

    @Test
    void testNegativeMax() {
        new BoundedCounter(-1);
    }

    @Test
    void testIncrementPastMax() {
        BoundedCounter c = new BoundedCounter(2);
        c.increment();
        c.increment();
        c.increment();
    }

    @Test
    void testValueAfterIncrement() {
        BoundedCounter c = new BoundedCounter(5);
        c.increment();
        int v = c.value();
    }
}
