package replaydemo;

/** A linked list node: the replayer's test program. */
public class Node {
    int value;
    Node next;
    final String label;

    public Node(int value, Node next) {
        this.value = value;
        this.next = next;
        this.label = "n" + value;
    }

    int sum() {
        int s = 0;
        for (Node n = this; n != null; n = n.next) {
            s += n.value;
        }
        return s;
    }

    void increment() {
        for (Node n = this; n != null; n = n.next) {
            n.value++;
        }
    }

    int weight() {
        return value;
    }

    /** Calls weight() virtually: only the replayed call itself is non-virtual. */
    String describe() {
        return label + ":" + weight();
    }
}
