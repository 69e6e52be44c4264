package tickets;

/** Support tickets numbered from a counter shared by the whole program. */
public class Ticket {
    private static int lastNumber = 1000;
    private static int open = 0;

    final int number;
    final String subject;
    boolean closed;

    private Ticket(int number, String subject) {
        this.number = number;
        this.subject = subject;
    }

    /** A new ticket with the next free number. */
    static Ticket issue(String subject) {
        int next = ++lastNumber;
        open++;
        return new Ticket(next, subject);
    }

    void close() {
        if (!closed) {
            closed = true;
            open--;
        }
    }

    static int openCount() {
        return open;
    }

    @Override
    public String toString() {
        return "#" + number + " " + subject + (closed ? " (closed)" : "");
    }
}
