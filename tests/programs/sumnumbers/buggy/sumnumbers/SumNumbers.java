package sumnumbers;

public class SumNumbers {
    int add(int x, int y) {
        return x + y;
    }
    boolean isEven(int x) {
        return (x % 2) == 0;
    }
    int sumNumbers(int[] array, String eo) {
        int sum = 0;
        for (int i = 1; i < array.length; i++) {
            if (eo.equals("even") && isEven(array[i]))
                sum = add(sum, array[i]);
            if (eo.equals("odd") && !isEven(array[i]))
                sum = add(sum, array[i]);
        }
        return sum;
    }

    public static void main(String[] args) {
        int[] array = { 1, 2, 3 };
        int sum = new SumNumbers().sumNumbers(array, "odd");
        System.out.println(sum);
    }
}
