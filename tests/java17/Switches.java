public class Switches {
    enum Color { RED, GREEN, BLUE }

    static int ofString(String s) {
        switch (s) {
            case "one": return 1;
            case "two": return 2;
            case "Aa": return 3;
            case "BB": return 4;
            default: return -1;
        }
    }

    static String ofEnum(Color c) {
        switch (c) {
            case RED: return "r";
            case GREEN: return "g";
            default: return "other";
        }
    }

    static int arrow(Object o) {
        return switch (o.toString()) {
            case "a" -> 10;
            case "b" -> { int t = 5; yield t * 4; }
            default -> 0;
        };
    }

    public static void main(String[] args) {
        System.out.println(ofString("one") + " " + ofString("Aa") + " " + ofString("BB") + " " + ofString("zz"));
        for (Color c : Color.values()) System.out.print(ofEnum(c));
        System.out.println();
        System.out.println(arrow("a") + arrow("b") + arrow("c"));
    }
}
