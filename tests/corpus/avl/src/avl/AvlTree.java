package avl;

import java.util.ArrayList;
import java.util.List;

/** A self-balancing AVL tree of int keys. */
public class AvlTree {
    static final class Node {
        int key;
        int height;
        Node left;
        Node right;

        Node(int key) {
            this.key = key;
            this.height = 1;
        }
    }

    private Node root;
    private int size;

    static int height(Node n) {
        return n == null ? 0 : n.height;
    }

    static void updateHeight(Node n) {
        n.height = 1 + Math.max(height(n.left), height(n.right));
    }

    static int balanceFactor(Node n) {
        return height(n.left) - height(n.right);
    }

    static Node rotateRight(Node y) {
        Node x = y.left;
        Node moved = x.right;
        x.right = y;
        y.left = moved;
        updateHeight(y);
        updateHeight(x);
        return x;
    }

    static Node rotateLeft(Node x) {
        Node y = x.right;
        Node moved = y.left;
        y.left = x;
        x.right = moved;
        updateHeight(x);
        updateHeight(y);
        return y;
    }

    static Node rebalance(Node n) {
        updateHeight(n);
        int balance = balanceFactor(n);
        if (balance > 1) {
            if (balanceFactor(n.left) < 0) {
                n.left = rotateLeft(n.left);
            }
            return rotateRight(n);
        }
        if (balance < -1) {
            if (balanceFactor(n.right) > 0) {
                n.right = rotateRight(n.right);
            }
            return rotateLeft(n);
        }
        return n;
    }

    public void insert(int key) {
        root = insert(root, key);
    }

    private Node insert(Node n, int key) {
        if (n == null) {
            size++;
            return new Node(key);
        }
        if (key < n.key) {
            n.left = insert(n.left, key);
        } else if (key > n.key) {
            n.right = insert(n.right, key);
        } else {
            return n;
        }
        return rebalance(n);
    }

    public void delete(int key) {
        root = delete(root, key);
    }

    private Node delete(Node n, int key) {
        if (n == null) {
            return null;
        }
        if (key < n.key) {
            n.left = delete(n.left, key);
        } else if (key > n.key) {
            n.right = delete(n.right, key);
        } else {
            if (n.left == null || n.right == null) {
                size--;
                return n.left != null ? n.left : n.right;
            }
            Node successor = minNode(n.right);
            n.key = successor.key;
            n.right = delete(n.right, successor.key);
        }
        return rebalance(n);
    }

    static Node minNode(Node n) {
        while (n.left != null) {
            n = n.left;
        }
        return n;
    }

    public boolean contains(int key) {
        Node n = root;
        while (n != null) {
            if (key == n.key) {
                return true;
            }
            n = key < n.key ? n.left : n.right;
        }
        return false;
    }

    public int size() {
        return size;
    }

    public int height() {
        return height(root);
    }

    public List<Integer> preorder() {
        List<Integer> out = new ArrayList<>();
        preorder(root, out);
        return out;
    }

    private static void preorder(Node n, List<Integer> out) {
        if (n == null) {
            return;
        }
        out.add(n.key);
        preorder(n.left, out);
        preorder(n.right, out);
    }
}
