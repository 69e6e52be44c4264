package bst;

import java.util.ArrayList;
import java.util.List;

/** An unbalanced binary search tree mapping string keys to int values. */
public class BinarySearchTree {
    static final class Node {
        final String key;
        int value;
        Node left;
        Node right;

        Node(String key, int value) {
            this.key = key;
            this.value = value;
        }
    }

    private Node root;
    private int count;

    public void put(String key, int value) {
        root = put(root, key, value);
    }

    private Node put(Node n, String key, int value) {
        if (n == null) {
            count++;
            return new Node(key, value);
        }
        int c = key.compareTo(n.key);
        if (c < 0) {
            n.left = put(n.left, key, value);
        } else if (c > 0) {
            n.right = put(n.right, key, value);
        } else {
            n.value = value;
        }
        return n;
    }

    public Integer get(String key) {
        Node n = find(root, key);
        return n == null ? null : n.value;
    }

    private static Node find(Node n, String key) {
        while (n != null) {
            int c = key.compareTo(n.key);
            if (c == 0) {
                return n;
            }
            n = c < 0 ? n.left : n.right;
        }
        return null;
    }

    public void remove(String key) {
        root = remove(root, key);
    }

    private Node remove(Node n, String key) {
        if (n == null) {
            return null;
        }
        int c = key.compareTo(n.key);
        if (c < 0) {
            n.left = remove(n.left, key);
            return n;
        }
        if (c > 0) {
            n.right = remove(n.right, key);
            return n;
        }
        count--;
        if (n.left == null) {
            return n.right;
        }
        if (n.right == null) {
            return n.left;
        }
        Node m = min(n.right);
        Node replacement = new Node(m.key, m.value);
        count++;
        replacement.right = remove(n.right, m.key);
        replacement.left = n.left;
        return replacement;
    }

    private static Node min(Node n) {
        return n.left == null ? n : min(n.left);
    }

    public int size() {
        return count;
    }

    public int depth() {
        return depth(root);
    }

    private static int depth(Node n) {
        if (n == null) {
            return 0;
        }
        return 1 + Math.max(depth(n.left), depth(n.right));
    }

    /** Keys in [lo, hi], in order. */
    public List<String> range(String lo, String hi) {
        List<String> out = new ArrayList<>();
        range(root, lo, hi, out);
        return out;
    }

    private static void range(Node n, String lo, String hi, List<String> out) {
        if (n == null) {
            return;
        }
        if (lo.compareTo(n.key) < 0) {
            range(n.left, lo, hi, out);
        }
        if (lo.compareTo(n.key) <= 0 && hi.compareTo(n.key) >= 0) {
            out.add(n.key);
        }
        if (hi.compareTo(n.key) > 0) {
            range(n.right, lo, hi, out);
        }
    }

    public int sum() {
        return sum(root);
    }

    private static int sum(Node n) {
        return n == null ? 0 : n.value + sum(n.left) + sum(n.right);
    }

    public String floor(String key) {
        Node n = root;
        String best = null;
        while (n != null) {
            int c = key.compareTo(n.key);
            if (c == 0) {
                return n.key;
            }
            if (c > 0) {
                best = n.key;
                n = n.right;
            } else {
                n = n.left;
            }
        }
        return best;
    }
}
