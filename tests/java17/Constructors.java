import java.util.ArrayList;

public class Constructors {
    static class Base {
        final String name;

        Base(String name) {
            if (name == null) throw new IllegalArgumentException("no name");
            this.name = name;
        }
    }

    static class Derived extends Base {
        final int n;

        Derived(String name, int n) {
            super(name.isEmpty() ? "empty" : name);
            this.n = n;
        }

        Derived(int n) {
            this("d" + n, n);
        }
    }

    static class MyList extends ArrayList<String> {
        MyList(int capacity) {
            super(capacity);
            add("first");
        }
    }

    static class Child extends Base {
        Child() {
            super(null);
        }
    }

    static class BadList extends ArrayList<String> {
        BadList() {
            super(-1);
        }
    }

    public static void main(String[] args) {
        Derived d = new Derived(7);
        System.out.println(d.name + " " + d.n + " " + new Derived("", 1).name);
        System.out.println(new MyList(4));
        try {
            new Derived(null, 3);
        } catch (NullPointerException e) {
            System.out.println("npe");
        }
        try {
            new Base(null);
        } catch (IllegalArgumentException e) {
            System.out.println(e.getMessage());
        }
        try {
            new Child();
        } catch (IllegalArgumentException e) {
            System.out.println("child: " + e.getMessage());
        }
        try {
            new BadList();
        } catch (IllegalArgumentException e) {
            System.out.println("bad list: " + e.getMessage());
        }
    }
}
