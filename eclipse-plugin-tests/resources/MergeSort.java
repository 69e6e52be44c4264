import java.util.Arrays;

// The jhyde paper's MergeSort (Listing 1) with its defect in merge; line numbers match the paper's.

public class MergeSort {

    private static void merge(int[] a, int la, int ra, int[] b, int lb, int rb,
            int[] c, int lc) {
        while (la < ra && lb < rb)
            c[lc++] = (a[la] < b[lb]) ? a[la++] : b[lb++];
        while (la < ra)
            c[lb++] = a[la++]; // must be: c[lc++] = a[la++];
        while (lb < rb)
            c[lc++] = b[lb++];
    }

    private static void distribute(int[] a, int[] b, int[] c, int l) {
        int i = 0;
        for (int j = 0; j < a.length; j += 2 * l) {
            for (int k = j / 2; k < j / 2 + l; k++)
                b[k] = a[i++];
            for (int k = j / 2; k < j / 2 + l; k++)
                c[k] = a[i++];
        }
    }

    public static void sort(int[] a) {
        int[] b = new int[a.length];
        int[] c = new int[a.length];
        for (int size = 1; size < a.length; size *= 2) {
            distribute(a, b, c, size);
            for (int i = 0; i < a.length / 2; i += size)
                merge(b, i, i + size, c, i, i + size, a, 2 * i);
        }
    }

    public static void main(String[] args) {
        int[] a = new int[] {4, 9, 1, 7};
        MergeSort.sort(a);
        System.out.println(Arrays.toString(a));
    }
}
