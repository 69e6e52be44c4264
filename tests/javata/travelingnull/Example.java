public class Example {
  public Example() {
    m1();
  }
  public void m1() {
    FarAWayClass o = new FarAWayClass();
    String result = o.doSomeThing();
    m2(result);
  }
  public void m2(String result) {
    mN(result);
  }
  public void mN(String result) {
/*14*/if (result.equals("some result"))
        System.out.println("some result");
      else
        System.out.println("other result");
  }
  public static void main(String[] args) {
    new Example();
  }
}
class FarAWayClass {
  public String doSomeThing() {
    // some code that incorrectly results in returning a null
    return null;
  }
}
