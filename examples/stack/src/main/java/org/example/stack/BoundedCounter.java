package org.example.stack;

/**
 * A counter that starts at zero and can be incremented up to a fixed maximum.
 */
public class BoundedCounter {

    /** A maximum that is, for all practical purposes, unbounded. */
    public static final int UNBOUNDED = Integer.MAX_VALUE;

    private final int max;
    private int value;

    /**
     * Creates a counter with value zero and the given maximum.
     *
     * @param max the largest value this counter may reach
     * @throws IllegalArgumentException if max is negative
     */
    public BoundedCounter(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("max must not be negative: " + max);
        }
        this.max = max;
        this.value = 0;
    }

    /**
     * Increments this counter by one.
     *
     * @throws IllegalStateException if the counter is already at its maximum
     */
    public void increment() {
        if (value >= max) {
            throw new IllegalStateException("counter is already at its maximum " + max);
        }
        value++;
    }

    /**
     * Returns the current value of this counter.
     *
     * @return the current value, between zero and {@link #getMax()} inclusive
     */
    public int value() {
        return value;
    }

    /**
     * Returns the maximum value of this counter.
     *
     * @return the maximum value this counter may reach
     */
    public int getMax() {
        return max;
    }

    /**
     * Tests whether this counter has reached its maximum.
     *
     * @return {@code true} if the current value equals the maximum, {@code false} otherwise
     */
    public boolean isAtMax() {
        return value == max;
    }

    /**
     * Resets this counter to zero.
     */
    public void reset() {
        value = 0;
    }
}
