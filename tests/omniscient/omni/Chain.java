package omni;

/** A linked list of 1000 nodes whose last value is negated: a deep graph to expand lazily. */
public class Chain {
    static class Node {
        int value;
        Node next;

        Node(int value, Node next) {
            this.value = value;
            this.next = next;
        }
    }

    static Node build(int n) {
        Node head = null;
        for (int i = n; i >= 1; i--)
            head = new Node(i, head);
        return head;
    }

    static void negateLast(Node head) {
        Node p = head;
        while (p.next != null)
            p = p.next;
        p.value = -p.value;
    }

    public static void main(String[] args) {
        Node head = build(1000);
        negateLast(head);
        System.out.println(head.value);
    }
}
