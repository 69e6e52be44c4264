package btree;

import java.util.ArrayList;
import java.util.List;

/** A B-tree of int keys with minimum degree T (Cormen et al.): search, insert with splits. */
public class BTree {
    static final int T = 3;
    static final int MAX_KEYS = 2 * T - 1;

    static final class Node {
        int n;
        final int[] keys = new int[MAX_KEYS];
        final Node[] children = new Node[MAX_KEYS + 1];
        boolean leaf = true;
    }

    private Node root = new Node();
    private int splits;

    /** Index of the first key of x that is >= k (x.n when there is none). */
    static int lowerBound(Node x, int k) {
        int lo = 0;
        int hi = x.n;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (x.keys[mid] < k) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    public boolean contains(int k) {
        Node x = root;
        while (true) {
            int i = lowerBound(x, k);
            if (i < x.n && x.keys[i] == k) {
                return true;
            }
            if (x.leaf) {
                return false;
            }
            x = x.children[i];
        }
    }

    public void insert(int k) {
        if (contains(k)) {
            return;
        }
        Node r = root;
        if (r.n == MAX_KEYS) {
            Node s = new Node();
            s.leaf = false;
            s.children[0] = r;
            root = s;
            splitChild(s, 0);
            insertNonFull(s, k);
        } else {
            insertNonFull(r, k);
        }
    }

    /** Splits the full child y = x.children[i] around its median key, which moves up into x. */
    void splitChild(Node x, int i) {
        splits++;
        Node y = x.children[i];
        Node z = new Node();
        z.leaf = y.leaf;
        z.n = T - 1;
        for (int j = 0; j < T - 1; j++) {
            z.keys[j] = y.keys[j + T];
        }
        if (!y.leaf) {
            for (int j = 0; j < T; j++) {
                z.children[j] = y.children[j + T];
                y.children[j + T] = null;
            }
        }
        y.n = T - 1;
        for (int j = x.n; j > i; j--) {
            x.children[j + 1] = x.children[j];
        }
        x.children[i + 1] = z;
        for (int j = x.n - 1; j >= i; j--) {
            x.keys[j + 1] = x.keys[j];
        }
        x.keys[i] = y.keys[T - 1];
        x.n = x.n + 1;
    }

    void insertNonFull(Node x, int k) {
        if (x.leaf) {
            int i = x.n - 1;
            while (i >= 0 && k < x.keys[i]) {
                x.keys[i + 1] = x.keys[i];
                i--;
            }
            x.keys[i + 1] = k;
            x.n++;
            return;
        }
        int i = lowerBound(x, k);
        if (x.children[i].n == MAX_KEYS) {
            splitChild(x, i);
            if (k > x.keys[i]) {
                i++;
            }
        }
        insertNonFull(x.children[i], k);
    }

    public int height() {
        int h = 1;
        for (Node x = root; !x.leaf; x = x.children[0]) {
            h++;
        }
        return h;
    }

    public int splits() {
        return splits;
    }

    public List<Integer> keys() {
        List<Integer> out = new ArrayList<>();
        collect(root, out);
        return out;
    }

    private static void collect(Node x, List<Integer> out) {
        for (int i = 0; i < x.n; i++) {
            if (!x.leaf) {
                collect(x.children[i], out);
            }
            out.add(x.keys[i]);
        }
        if (!x.leaf) {
            collect(x.children[x.n], out);
        }
    }

    /** The tree level by level, nodes as [k1 k2 ...]. */
    public String shape() {
        StringBuilder sb = new StringBuilder();
        List<Node> level = new ArrayList<>();
        level.add(root);
        while (!level.isEmpty()) {
            List<Node> next = new ArrayList<>();
            for (Node x : level) {
                sb.append('[');
                for (int i = 0; i < x.n; i++) {
                    sb.append(i == 0 ? "" : " ").append(x.keys[i]);
                }
                sb.append(']');
                if (!x.leaf) {
                    for (int i = 0; i <= x.n; i++) {
                        next.add(x.children[i]);
                    }
                }
            }
            sb.append('\n');
            level = next;
        }
        return sb.toString();
    }
}
