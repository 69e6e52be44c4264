package castling;

public class Chess {
    public static void main(String[] args) {
        Chess p = new Chess();
        Position tower = new Position();
        Position king = new Position();
        king.locate(5,1);
        tower.locate(8,1);
        p.castling(tower,king);
        System.out.println("king=" + king + " tower=" + tower);
    }
    void castling(Position t,Position k) {
        if (t.x!=8){
            for(int i=1; i<=2; i++) {t.left();}
            for(int i=1; i<=2; i++) {k.right();}
        } else{
            for(int i=1; i<=3; i++) {t.right();}
            for(int i=1; i<=2; i++) {k.left();}
        }
    }
}
