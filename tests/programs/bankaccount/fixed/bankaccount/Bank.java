package bankaccount;

public class Bank {
    public static void main(String[] args) {
        Account alice = new Account("alice", 10_000);
        Account bob = new Account("bob", 2_500);
        alice.deposit(1_500);
        System.out.println("rent paid: " + alice.transferTo(bob, 8_000));
        System.out.println("car paid: " + alice.transferTo(bob, 6_000));
        System.out.println(bob.withdraw(3_000));
        System.out.println(alice);
        System.out.println(bob);
        System.out.println("money in the bank: " + (alice.balance() + bob.balance()));
    }
}
