package fielddump;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Prints objects as {@code Name{field=value, ...}} by reflection, as a reflective toString
 * builder does: instance fields only, and not those whose name starts with an underscore.
 */
public class FieldDump {
    static class Point {
        static int created;
        final int x;
        final int y;
        String _cache;

        Point(int x, int y) {
            this.x = x;
            this.y = y;
            created++;
        }
    }

    static class Account {
        static final String BANK = "ACME";
        String owner;
        long cents;
        transient String _session = "s1";

        Account(String owner, long cents) {
            this.owner = owner;
            this.cents = cents;
        }
    }

    /** Whether a field is shown: an instance field whose name has no leading underscore. */
    static boolean shown(Field f) {
        return !Modifier.isStatic(f.getModifiers()) || !f.getName().startsWith("_");
    }

    static String describe(Object o) throws IllegalAccessException {
        Field[] fields = o.getClass().getDeclaredFields();
        Arrays.sort(fields, Comparator.comparing(Field::getName));
        StringBuilder b = new StringBuilder(o.getClass().getSimpleName()).append('{');
        String sep = "";
        for (Field f : fields) {
            if (shown(f)) {
                f.setAccessible(true);
                b.append(sep).append(f.getName()).append('=').append(f.get(o));
                sep = ", ";
            }
        }
        return b.append('}').toString();
    }

    public static void main(String[] args) throws Exception {
        Object[] things = {new Point(1, 2), new Account("ann", 1250), new Point(-3, 4)};
        for (Object t : things) {
            System.out.println(describe(t));
        }
    }
}
