package castling;

public class Position {
    int x, y;
    void locate(int a, int b) {x=a; y=b;}
    void up() {y=y+1;}
    void down() {y=y-1;}
    void right() {x=x+1;}
    void left() {x=x-1;}

    @Override
    public String toString() {
        return "(" + x + "," + y + ")";
    }
}
