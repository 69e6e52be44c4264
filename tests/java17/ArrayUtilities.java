import java.util.Arrays;

public class ArrayUtilities {
    public static void main(String[] args) {
        int[] a = {5, 3, 9, 1};
        Arrays.sort(a);
        int[] b = new int[6];
        System.arraycopy(a, 1, b, 2, 3);
        String[] s = {"b", "a", "c"};
        Arrays.sort(s, 0, 2);
        double[] d = new double[3];
        Arrays.fill(d, 1, 3, 2.5);
        long[] l = new long[3];
        Arrays.setAll(l, i -> i * 10L);
        System.out.println(Arrays.toString(a) + Arrays.toString(b) + Arrays.toString(s) + Arrays.toString(d) + Arrays.toString(l));
    }
}
