package org.example.stack;

import java.util.ArrayList;
import java.util.EmptyStackException;
import java.util.List;

/**
 * A simple last-in, first-out (LIFO) stack backed by an {@link ArrayList}.
 *
 * @param <T> the type of elements held in this stack
 */
public class Stack<T> {

    /** The initial capacity used by the no-argument constructor. */
    public static final int DEFAULT_CAPACITY = 10;

    private final List<T> elements;

    /**
     * Creates an empty stack with the {@link #DEFAULT_CAPACITY default capacity}.
     */
    public Stack() {
        this(DEFAULT_CAPACITY);
    }

    /**
     * Creates an empty stack with the given initial capacity.
     *
     * @param initialCapacity the initial capacity of the backing list
     * @throws IllegalArgumentException if initialCapacity is negative
     */
    public Stack(int initialCapacity) {
        if (initialCapacity < 0) {
            throw new IllegalArgumentException("initialCapacity must not be negative: " + initialCapacity);
        }
        this.elements = new ArrayList<>(initialCapacity);
    }

    /**
     * Pushes an item onto the top of this stack.
     *
     * @param item the item to push; may be {@code null}
     */
    public void push(T item) {
        elements.add(item);
    }

    /**
     * Removes the item at the top of this stack and returns it.
     *
     * @return the item that was at the top of this stack
     * @throws EmptyStackException if this stack is empty
     */
    public T pop() {
        if (elements.isEmpty()) {
            throw new EmptyStackException();
        }
        return elements.remove(elements.size() - 1);
    }

    /**
     * Returns the item at the top of this stack without removing it.
     *
     * @return the item at the top of this stack
     * @throws EmptyStackException if this stack is empty
     */
    public T peek() {
        if (elements.isEmpty()) {
            throw new EmptyStackException();
        }
        return elements.get(elements.size() - 1);
    }

    /**
     * Tests whether this stack contains no items.
     *
     * @return {@code true} if this stack is empty, {@code false} otherwise
     */
    public boolean isEmpty() {
        return elements.isEmpty();
    }

    /**
     * Returns the number of items in this stack.
     *
     * @return the number of items in this stack
     */
    public int size() {
        return elements.size();
    }
}
