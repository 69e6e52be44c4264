public class StringConcat {
    static String describe(String name, int n, double d, char c, Object o) {
        return name + ":" + n + "/" + d + c + o + null;
    }

    public static void main(String[] args) {
        String s = describe("x", 3, 1.5, '!', java.util.List.of(1, 2));
        System.out.println(s);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            sb.append(i).append(',');
        }
        System.out.println(sb + " long " + "é€😀".length());
    }
}
