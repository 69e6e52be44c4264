package library.lang3;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.commons.lang3.ArrayUtils;
import org.apache.commons.lang3.BooleanUtils;
import org.apache.commons.lang3.CharUtils;
import org.apache.commons.lang3.EnumUtils;
import org.apache.commons.lang3.ObjectUtils;
import org.apache.commons.lang3.RandomStringUtils;
import org.apache.commons.lang3.Range;
import org.apache.commons.lang3.StringUtils;
import org.apache.commons.lang3.SystemUtils;
import org.apache.commons.lang3.Validate;
import org.apache.commons.lang3.builder.CompareToBuilder;
import org.apache.commons.lang3.builder.EqualsBuilder;
import org.apache.commons.lang3.builder.HashCodeBuilder;
import org.apache.commons.lang3.builder.ToStringBuilder;
import org.apache.commons.lang3.builder.ToStringStyle;
import org.apache.commons.lang3.exception.ExceptionUtils;
import org.apache.commons.lang3.math.NumberUtils;
import org.apache.commons.lang3.text.WordUtils;
import org.apache.commons.lang3.tuple.Pair;
import org.apache.commons.lang3.tuple.Triple;

/**
 * The Commons Lang 3 driver of `hindsight bench library`: string utilities over a few inputs
 * (null and empty among them), arrays, objects whose toString, equals and hashCode are Lang's
 * reflective builders, an enum keyed map, tuples, validation in a try-with-resources, and an
 * exception unwound through a recursion. Java features the other drivers lack: enums, switch on
 * strings, lambdas and streams, reflection.
 */
public final class Main {
    enum Color { RED, GREEN, BLUE }

    static final class Point {
        final int x;
        final int y;
        final String label;
        final Color color;

        Point(int x, int y, String label, Color color) {
            this.x = x;
            this.y = y;
            this.label = label;
            this.color = color;
        }

        @Override
        public String toString() {
            return ToStringBuilder.reflectionToString(this, ToStringStyle.SHORT_PREFIX_STYLE);
        }

        @Override
        public boolean equals(Object o) {
            return EqualsBuilder.reflectionEquals(this, o);
        }

        @Override
        public int hashCode() {
            return HashCodeBuilder.reflectionHashCode(this);
        }
    }

    static final class Resource implements AutoCloseable {
        final String name;

        Resource(String name) {
            this.name = name;
            System.out.println("open " + name);
        }

        @Override
        public void close() {
            System.out.println("close " + name);
        }
    }

    private Main() {
    }

    static int depth(int n) {
        if (n == 0) {
            throw new IllegalStateException("bottom");
        }
        return depth(n - 1) + 1;
    }

    static String kind(String s) {
        switch (StringUtils.defaultString(s, "null")) {
            case "":
                return "empty";
            case "null":
                return "null";
            case "racecar":
                return "palindrome";
            default:
                return NumberUtils.isCreatable(s) ? "number" : "text";
        }
    }

    public static void main(String[] args) {
        String[] inputs = {"  Hello World  ", "camelCaseString", "", null, "racecar",
            "Apache Commons Lang", "12.5", "0x1F", "abc123"};
        for (String s : inputs) {
            System.out.println("[" + StringUtils.trimToEmpty(s) + "] kind=" + kind(s)
                    + " abbr=" + StringUtils.abbreviate(StringUtils.defaultIfBlank(s, "-"), 8)
                    + " rev=" + StringUtils.reverse(s)
                    + " cap=" + WordUtils.capitalizeFully(s)
                    + " digits=" + StringUtils.getDigits(s)
                    + " split=" + Arrays.toString(StringUtils.splitByCharacterTypeCamelCase(s)));
        }
        System.out.println(StringUtils.join(new int[] {3, 1, 2}, '-') + " "
                + StringUtils.leftPad("7", 4, '0') + " "
                + StringUtils.getLevenshteinDistance("kitten", "sitting") + " "
                + StringUtils.countMatches("banana", "an"));

        int[] numbers = ArrayUtils.add(new int[] {5, 3, 9, 1}, 7);
        ArrayUtils.reverse(numbers);
        System.out.println(Arrays.toString(numbers) + " idx9=" + ArrayUtils.indexOf(numbers, 9)
                + " sub=" + Arrays.toString(ArrayUtils.subarray(numbers, 1, 3)));

        List<Point> points = IntStream.range(0, 5)
                .mapToObj(i -> new Point(i, i * i % 3, "p" + i, Color.values()[i % 3]))
                .collect(Collectors.toList());
        points.forEach(p -> System.out.println(p + " hash=" + (p.hashCode() != 0)));
        System.out.println("eq=" + points.get(1).equals(new Point(1, 1, "p1", Color.GREEN))
                + " ne=" + points.get(1).equals(points.get(2)));
        Map<Color, Long> byColor = points.stream().collect(Collectors.groupingBy(p -> p.color,
                () -> new EnumMap<>(Color.class), Collectors.counting()));
        System.out.println(byColor);

        Pair<String, Integer> pair = Pair.of("a", 1);
        Triple<String, Integer, Color> triple = Triple.of("b", 2, Color.BLUE);
        System.out.println(pair + " " + triple + " "
                + new CompareToBuilder().append(3, 4).append("x", "x").toComparison());
        System.out.println(new ToStringBuilder(pair, ToStringStyle.JSON_STYLE)
                .append("left", pair.getLeft()).append("c", Color.RED).build());

        try (Resource a = new Resource("a"); Resource b = new Resource("b")) {
            Validate.isTrue(a.name.length() == 1, "bad name");
            Validate.notBlank("  ", "blank %s", "value");
        } catch (IllegalArgumentException e) {
            System.out.println("caught " + e.getMessage());
        }
        try {
            depth(4);
        } catch (IllegalStateException e) {
            System.out.println("caught " + e.getMessage() + " " + ExceptionUtils.getRootCauseMessage(e));
        }

        Supplier<String> empty = () -> RandomStringUtils.random(0);
        System.out.println("sup=[" + empty.get() + "] " + EnumUtils.getEnumList(Color.class) + " "
                + EnumUtils.isValidEnum(Color.class, "RED") + " "
                + EnumUtils.getEnum(Color.class, "GREEN"));
        System.out.println(CharUtils.toString('x') + BooleanUtils.toStringYesNo(true)
                + ObjectUtils.firstNonNull(null, "fnn") + Range.between(1, 10).contains(5)
                + SystemUtils.IS_JAVA_1_8);
    }
}
