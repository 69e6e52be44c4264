import java.util.AbstractList;
import java.util.List;

/**
 * Fields reached through a type other than the one that declares them: javac names the type of
 * the expression ({@code sub.row} is {@code getfield InheritedFields$Sub.row} although {@code
 * Base} declares {@code row}). The agent gives each field one id, that of its declaring class,
 * so a variable has one history whichever type the code reached it by (agent/tests/java17.rs).
 */
public class InheritedFields {
    interface Named {
        List<String> NAMES = List.of("a", "b");
    }

    static class Base {
        protected int row;
        static int created;

        Base() {
            row = 1;
            created++;
        }

        int row() {
            return row;
        }
    }

    static class Sub extends Base implements Named {
        void next() {
            row = row + 10;
        }
    }

    /** Declares its own {@code row}, which hides Base's: two variables. */
    static class Shadow extends Base {
        int row = 5;

        int both() {
            return row + super.row;
        }
    }

    /** A JDK superclass's protected field. */
    static class Counted extends AbstractList<Integer> {
        void touch() {
            modCount++;
        }

        @Override
        public Integer get(int i) {
            return i;
        }

        @Override
        public int size() {
            return 0;
        }
    }

    public static void main(String[] args) {
        Sub s = new Sub();
        s.next();
        Sub.created += 100;
        Shadow h = new Shadow();
        Counted c = new Counted();
        c.touch();
        System.out.println(s.row() + " " + s.row + " " + Sub.created + " " + h.both() + " "
                + Sub.NAMES.size() + " " + c.size());
    }
}
