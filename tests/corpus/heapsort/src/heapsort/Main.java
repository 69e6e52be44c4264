package heapsort;

import java.util.Arrays;

public class Main {
    public static void main(String[] args) {
        int[] a = new int[25];
        long seed = 42;
        for (int i = 0; i < a.length; i++) {
            seed = (seed * 1103515245L + 12345L) % 2147483648L;
            a[i] = (int) (seed % 1000);
        }
        System.out.println("input  " + Arrays.toString(a));
        HeapSort.sort(a);
        System.out.println("sorted " + Arrays.toString(a) + " " + HeapSort.isSorted(a));
        System.out.println("median " + a[a.length / 2]);

        MinHeap jobs = new MinHeap();
        String[] names = {"backup", "email", "build", "deploy", "index", "report", "cleanup", "alert"};
        int[] urgency = {7, 3, 5, 2, 9, 6, 8, 1};
        for (int i = 0; i < names.length; i++) {
            jobs.add(urgency[i], names[i]);
        }
        StringBuilder order = new StringBuilder();
        while (!jobs.isEmpty()) {
            order.append(jobs.poll()).append(' ');
        }
        System.out.println("jobs " + order.toString().trim());
    }
}
