package org.objectweb.asm;

/** A stand-in for a program's own (different) ASM: same name as ASM's class, other API. */
public class ClassReader {
    public static String who() {
        return "the program's own ASM";
    }
}
