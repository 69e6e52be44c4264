import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

public class Lambdas {
    static int twice(int x) {
        return 2 * x;
    }

    public static void main(String[] args) {
        Function<Integer, Integer> inc = x -> x + 1;
        System.out.println(inc.apply(41));
        List<Integer> xs = new ArrayList<>(List.of(3, 1, 2));
        xs.sort((a, b) -> Integer.compare(a, b));
        xs.replaceAll(Lambdas::twice);
        System.out.println(xs);
        int base = 10;
        Supplier<String> s = () -> "base=" + base;
        System.out.println(s.get());
        Runnable r = () -> System.out.println("run " + xs.size());
        r.run();
    }
}
