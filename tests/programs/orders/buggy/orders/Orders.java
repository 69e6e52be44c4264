package orders;

import java.util.ArrayList;
import java.util.List;

/** Reads order lines "item, quantity, unit price in cents" and prints an invoice. */
public class Orders {
    record Line(String item, int quantity, int unitCents) {
        int totalCents() {
            return quantity * unitCents;
        }
    }

    static Line parse(String text) {
        String[] parts = text.split(",");
        String item = parts[0].trim();
        int quantity = Integer.parseInt(parts[1]);
        int unit = Integer.parseInt(parts[2].trim());
        return new Line(item, quantity, unit);
    }

    static List<Line> parseAll(String[] texts) {
        List<Line> lines = new ArrayList<>();
        for (String t : texts) {
            lines.add(parse(t));
        }
        return lines;
    }

    static String euros(int cents) {
        return (cents / 100) + "." + String.format("%02d", cents % 100);
    }

    public static void main(String[] args) {
        String[] input = {"pencil, 12, 45", "notebook,3,250", "stapler, 1, 899"};
        int sum = 0;
        for (Line l : parseAll(input)) {
            System.out.println(l.item() + " x" + l.quantity() + " " + euros(l.totalCents()));
            sum += l.totalCents();
        }
        System.out.println("total " + euros(sum));
    }
}
