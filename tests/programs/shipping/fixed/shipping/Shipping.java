package shipping;

import java.util.ArrayList;
import java.util.List;

/** Shipping cost of an order: a fee per parcel by weight class, plus insurance. */
public class Shipping {
    record Parcel(String label, int weightKg, int valueEuro) {}

    /** Heavy (over 20 kg) 25, medium (over 5 kg) 12, light 6. */
    static int weightFee(int weightKg) {
        int fee;
        if (weightKg > 20)
            fee = 25;
        else if (weightKg > 5)
            fee = 12;
        else
            fee = 6;
        return fee;
    }

    /** One percent of the declared value, at least 1. */
    static int insurance(int valueEuro) {
        return Math.max(1, valueEuro / 100);
    }

    static int cost(Parcel p) {
        return weightFee(p.weightKg()) + insurance(p.valueEuro());
    }

    static int total(List<Parcel> parcels) {
        int sum = 0;
        for (Parcel p : parcels) {
            int c = cost(p);
            System.out.println(p.label() + ": " + c);
            sum += c;
        }
        return sum;
    }

    public static void main(String[] args) {
        List<Parcel> order = new ArrayList<>();
        order.add(new Parcel("books", 24, 300));
        order.add(new Parcel("lamp", 7, 80));
        order.add(new Parcel("socks", 1, 20));
        System.out.println("total: " + total(order));
    }
}
