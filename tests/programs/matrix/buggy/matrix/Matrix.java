package matrix;

/** Small dense integer matrices: product, transpose and trace. */
public class Matrix {
    final int rows;
    final int cols;
    final int[][] cells;

    Matrix(int[][] cells) {
        this.rows = cells.length;
        this.cols = cells[0].length;
        this.cells = cells;
    }

    Matrix multiply(Matrix other) {
        int[][] out = new int[rows][other.cols];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < other.cols; j++) {
                out[i][j] = dot(i, other, j);
            }
        }
        return new Matrix(out);
    }

    /** Row i of this times column j of other. */
    int dot(int i, Matrix other, int j) {
        int sum = 0;
        for (int k = 0; k < cols; k++) {
            sum += cells[i][k] * other.cells[k][i];
        }
        return sum;
    }

    Matrix transpose() {
        int[][] out = new int[cols][rows];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                out[j][i] = cells[i][j];
            }
        }
        return new Matrix(out);
    }

    int trace() {
        int t = 0;
        for (int i = 0; i < Math.min(rows, cols); i++) {
            t += cells[i][i];
        }
        return t;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int[] row : cells) {
            sb.append(java.util.Arrays.toString(row)).append('\n');
        }
        return sb.toString();
    }

    public static void main(String[] args) {
        Matrix a = new Matrix(new int[][] {{1, 2, 3}, {4, 5, 6}});
        Matrix b = new Matrix(new int[][] {{7, 8}, {9, 10}, {11, 12}});
        Matrix p = a.multiply(b);
        System.out.print(p);
        System.out.println("trace " + p.trace());
        System.out.print(a.multiply(a.transpose()));
    }
}
