import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A CPU-bound program for the agent's overhead benchmark: merge sort, arithmetic in small
 * methods, objects with fields, and JDK collections. Deterministic; prints a checksum.
 * Usage: java Bench [scale] (default 1; scale 1 records about 2*10^7 events).
 */
public class Bench {
    static final class Account {
        private long balance;
        private int operations;

        void deposit(long amount) {
            balance += amount;
            operations++;
        }

        long balance() {
            return balance;
        }
    }

    static void mergeSort(int[] a, int[] tmp, int lo, int hi) {
        if (hi - lo < 2) {
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid);
        mergeSort(a, tmp, mid, hi);
        merge(a, tmp, lo, mid, hi);
    }

    static void merge(int[] a, int[] tmp, int lo, int mid, int hi) {
        int i = lo, j = mid, k = lo;
        while (i < mid && j < hi) {
            tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
        }
        while (i < mid) {
            tmp[k++] = a[i++];
        }
        while (j < hi) {
            tmp[k++] = a[j++];
        }
        for (k = lo; k < hi; k++) {
            a[k] = tmp[k];
        }
    }

    static int next(int seed) {
        return seed * 1103515245 + 12345;
    }

    static int gcd(int a, int b) {
        while (b != 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    public static void main(String[] args) {
        int scale = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        long checksum = 0;
        int seed = 42;
        for (int round = 0; round < 4 * scale; round++) {
            int[] a = new int[20000];
            for (int i = 0; i < a.length; i++) {
                seed = next(seed);
                a[i] = seed >>> 8;
            }
            mergeSort(a, new int[a.length], 0, a.length);
            checksum += a[0] + a[a.length - 1];
        }
        for (int i = 1; i < 100000 * scale; i++) {
            checksum += gcd(i, 360);
        }
        Account[] accounts = new Account[100];
        for (int i = 0; i < accounts.length; i++) {
            accounts[i] = new Account();
        }
        for (int i = 0; i < 200000 * scale; i++) {
            accounts[i % accounts.length].deposit(i);
        }
        Map<Integer, List<Integer>> groups = new HashMap<>();
        for (int i = 0; i < 50000 * scale; i++) {
            groups.computeIfAbsent(i % 97, k -> new ArrayList<>()).add(i);
        }
        for (Account acc : accounts) {
            checksum += acc.balance();
        }
        checksum += groups.get(5).size();
        System.out.println(checksum);
    }
}
