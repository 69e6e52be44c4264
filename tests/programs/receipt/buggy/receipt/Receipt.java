package receipt;

import java.util.ArrayList;
import java.util.List;

/** Builds a shop receipt as text: padded item lines, a CSV export and the total. */
public class Receipt {
    private final List<String> items = new ArrayList<>();
    private final List<Integer> prices = new ArrayList<>();

    void add(String item, int cents) {
        items.add(item);
        prices.add(cents);
    }

    static String pad(String s, int width) {
        StringBuilder sb = new StringBuilder(s);
        while (sb.length() < width) {
            sb.append('.');
        }
        return sb.toString();
    }

    static String money(int cents) {
        return String.format("%d.%02d", cents / 100, cents % 100);
    }

    /** The items separated by commas, without a trailing comma. */
    String csv() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < items.size(); i++) {
            sb.append(items.get(i));
            if (i < items.size()) {
                sb.append(',');
            }
        }
        return sb.toString();
    }

    String render() {
        StringBuilder sb = new StringBuilder();
        int total = 0;
        for (int i = 0; i < items.size(); i++) {
            sb.append(pad(items.get(i), 16)).append(money(prices.get(i))).append('\n');
            total += prices.get(i);
        }
        sb.append(pad("TOTAL", 16)).append(money(total)).append('\n');
        sb.append("items: ").append(csv());
        return sb.toString();
    }

    public static void main(String[] args) {
        Receipt r = new Receipt();
        r.add("bread", 320);
        r.add("cheese", 1150);
        r.add("apples", 405);
        System.out.println(r.render());
    }
}
