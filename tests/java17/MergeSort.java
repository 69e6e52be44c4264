import java.util.Arrays;

/** The jhyde paper's MergeSort with its bug: merge writes c[lb++] instead of c[lc++]. */
public class MergeSort {
    static void mergeSort(int[] a) {
        if (a.length > 1) {
            int mid = a.length / 2;
            int[] b = Arrays.copyOfRange(a, 0, mid);
            int[] c = Arrays.copyOfRange(a, mid, a.length);
            mergeSort(b);
            mergeSort(c);
            merge(b, c, a);
        }
    }

    static void merge(int[] a, int[] b, int[] c) {
        int la = 0, ra = a.length, lb = 0, rb = b.length, lc = 0;
        while (la < ra && lb < rb) {
            if (a[la] < b[lb]) {
                c[lc++] = a[la++];
            } else {
                c[lc++] = b[lb++];
            }
        }
        while (la < ra) {
            c[lb++] = a[la++];
        }
        while (lb < rb) {
            c[lc++] = b[lb++];
        }
    }

    public static void main(String[] args) {
        int[] a = {4, 9, 1, 7};
        mergeSort(a);
        System.out.println(Arrays.toString(a));
    }
}
