package heapsort;

/** In-place heap sort of an int array with a binary max-heap. */
public final class HeapSort {
    private HeapSort() {
    }

    static int left(int i) {
        return 2 * i + 1;
    }

    static int right(int i) {
        return 2 * i + 2;
    }

    static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    /** Restores the max-heap property below i, in a[0..n). */
    static void siftDown(int[] a, int i, int n) {
        while (true) {
            int largest = i;
            int l = left(i);
            int r = right(i);
            if (l < n && a[l] > a[largest]) {
                largest = l;
            }
            if (r < n && a[r] > a[largest]) {
                largest = r;
            }
            if (largest == i) {
                return;
            }
            swap(a, i, largest);
            i = largest;
        }
    }

    static void buildMaxHeap(int[] a) {
        for (int i = a.length / 2 - 1; i >= 0; i--) {
            siftDown(a, i, a.length);
        }
    }

    public static void sort(int[] a) {
        buildMaxHeap(a);
        for (int end = a.length - 1; end > 0; end--) {
            swap(a, 0, end);
            siftDown(a, 0, end);
        }
    }

    static boolean isSorted(int[] a) {
        for (int i = 1; i < a.length; i++) {
            if (a[i - 1] > a[i]) {
                return false;
            }
        }
        return true;
    }
}
