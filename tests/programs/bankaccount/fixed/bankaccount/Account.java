package bankaccount;

/** A bank account that keeps its balance in cents and counts its transactions. */
public class Account {
    private final String owner;
    private long balance;
    private int transactions;

    Account(String owner, long opening) {
        this.owner = owner;
        this.balance = opening;
    }

    void deposit(long amount) {
        balance = balance + amount;
        transactions++;
    }

    /** Takes amount off the balance if it is covered; tells whether it was. */
    boolean withdraw(long amount) {
        if (amount > balance) {
            return false;
        }
        balance = balance - amount;
        transactions++;
        return true;
    }

    boolean transferTo(Account other, long amount) {
        if (!withdraw(amount)) {
            return false;
        }
        other.deposit(amount);
        return true;
    }

    long balance() {
        return balance;
    }

    @Override
    public String toString() {
        return owner + ": " + balance + " after " + transactions + " transactions";
    }
}
