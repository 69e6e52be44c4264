package heapsort;

import java.util.Arrays;

/** A growable binary min-heap of (priority, label) entries used as a priority queue. */
public class MinHeap {
    private int[] priorities = new int[4];
    private String[] labels = new String[4];
    private int size;

    public void add(int priority, String label) {
        if (size == priorities.length) {
            grow();
        }
        priorities[size] = priority;
        labels[size] = label;
        size++;
        siftUp(size - 1);
    }

    private void grow() {
        priorities = Arrays.copyOf(priorities, priorities.length * 2);
        labels = Arrays.copyOf(labels, labels.length * 2);
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) / 2;
            if (priorities[parent] <= priorities[i]) {
                return;
            }
            exchange(i, parent);
            i = parent;
        }
    }

    private void siftDown(int i) {
        while (2 * i + 1 < size) {
            int child = 2 * i + 1;
            if (child + 1 < size && priorities[child + 1] < priorities[child]) {
                child++;
            }
            if (priorities[i] <= priorities[child]) {
                return;
            }
            exchange(i, child);
            i = child;
        }
    }

    private void exchange(int i, int j) {
        int p = priorities[i];
        priorities[i] = priorities[j];
        priorities[j] = p;
        String l = labels[i];
        labels[i] = labels[j];
        labels[j] = l;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** Removes the entry of least priority and gives "label:priority". */
    public String poll() {
        String top = labels[0] + ":" + priorities[0];
        size--;
        priorities[0] = priorities[size];
        labels[0] = labels[size];
        siftDown(0);
        return top;
    }
}
