package travelingnull;

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
    if (result.equals("some result"))
      System.out.println("some result");
    else
      System.out.println("other result");
  }
  public static void main(String[] args) {
    new Example();
  }
}
class FarAWayClass {
  private final String[] results = {"other result", "some result"};
  public String doSomeThing() {
    String found = null;
    for (int i = 0; i < results.length; i++) {
      if (results[i].startsWith("some"))
        found = results[i];
    }
    return found;
  }
}
