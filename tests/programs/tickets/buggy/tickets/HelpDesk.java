package tickets;

import java.util.HashMap;
import java.util.Map;

public class HelpDesk {
    private final Map<Integer, Ticket> byNumber = new HashMap<>();

    Ticket report(String subject) {
        Ticket t = Ticket.issue(subject);
        byNumber.put(t.number, t);
        return t;
    }

    void resolve(int number) {
        byNumber.get(number).close();
    }

    public static void main(String[] args) {
        HelpDesk desk = new HelpDesk();
        Ticket a = desk.report("printer jams");
        Ticket b = desk.report("no wifi");
        Ticket c = desk.report("forgot password");
        desk.resolve(b.number);
        System.out.println(a);
        System.out.println(b);
        System.out.println(c);
        System.out.println("tickets known: " + desk.byNumber.size());
        System.out.println("open: " + Ticket.openCount());
    }
}
