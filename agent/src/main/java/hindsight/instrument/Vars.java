package hindsight.instrument;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * A method's local variables as the wire format numbers them (var ids, docs/wire-format.md):
 * the arguments first in slot order ({@code this} included), then the LocalVariableTable in
 * table order. Without a table every slot stored to is a variable {@code localN} of the type
 * its store instruction gives, added as the analysis meets it.
 */
final class Vars implements Opcodes {
    private final MethodNode m;
    private final Ordinals ordinals;
    private final boolean hasLvt;
    private final int argSlots;

    private final List<Integer> slots = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private final List<String> descs = new ArrayList<>();
    private final Map<Integer, Integer> argVarBySlot = new HashMap<>();
    private final Map<LocalVariableNode, Integer> lvtVar = new IdentityHashMap<>();
    private final Map<String, Integer> syntheticVar = new HashMap<>();

    Vars(String owner, MethodNode m, Ordinals ordinals) {
        this.m = m;
        this.ordinals = ordinals;
        this.hasLvt = m.localVariables != null && !m.localVariables.isEmpty();
        int slot = 0;
        if ((m.access & ACC_STATIC) == 0) {
            argVarBySlot.put(0, add(0, "this", "L" + owner + ";"));
            slot = 1;
        }
        Type[] argTypes = Type.getArgumentTypes(m.desc);
        for (int i = 0; i < argTypes.length; i++) {
            String name = "arg" + i;
            if (hasLvt) {
                for (LocalVariableNode lv : m.localVariables) {
                    if (lv.index == slot) {
                        name = lv.name;
                        break;
                    }
                }
            }
            argVarBySlot.put(slot, add(slot, name, argTypes[i].getDescriptor()));
            slot += argTypes[i].getSize();
        }
        argSlots = slot;
        if (hasLvt) {
            for (LocalVariableNode lv : m.localVariables) {
                if (lv.index >= slot) {
                    lvtVar.put(lv, add(lv.index, lv.name, lv.desc));
                }
            }
        }
    }

    private int add(int slot, String name, String desc) {
        slots.add(slot);
        names.add(name);
        descs.add(desc);
        return slots.size() - 1;
    }

    /** The var id a load at {@code x} reads, or -1 for a compiler temporary. */
    int read(AbstractInsnNode x, int slot, int loadOpcode) {
        if (slot < argSlots) {
            Integer v = argVarBySlot.get(slot);
            return v == null ? -1 : v;
        }
        if (hasLvt) {
            int p = ordinals.of(x);
            for (LocalVariableNode lv : m.localVariables) {
                if (lv.index == slot && ordinals.of(lv.start) <= p && p < ordinals.of(lv.end)) {
                    return lvtVar.getOrDefault(lv, -1);
                }
            }
            return -1;
        }
        Integer v = syntheticVar.get(slot + storeDesc(loadOpcode - ILOAD + ISTORE));
        return v == null ? -1 : v;
    }

    /**
     * The var id a store at {@code x} writes, or -1 for a compiler temporary. A store just before
     * a variable's range starts belongs to it (javac initialises a variable, then opens its range).
     */
    int written(AbstractInsnNode x, int slot, int storeOpcode) {
        if (slot < argSlots) {
            Integer v = argVarBySlot.get(slot);
            return v == null ? -1 : v;
        }
        if (hasLvt) {
            int p = ordinals.of(x);
            for (LocalVariableNode lv : m.localVariables) {
                if (lv.index == slot && ordinals.of(lv.start) == p + 1) {
                    return lvtVar.getOrDefault(lv, -1);
                }
            }
            for (LocalVariableNode lv : m.localVariables) {
                if (lv.index == slot && ordinals.of(lv.start) <= p && p < ordinals.of(lv.end)) {
                    return lvtVar.getOrDefault(lv, -1);
                }
            }
            return -1;
        }
        String desc = storeDesc(storeOpcode);
        String key = slot + desc;
        Integer var = syntheticVar.get(key);
        if (var == null) {
            var = add(slot, "local" + slot, desc);
            syntheticVar.put(key, var);
        }
        return var;
    }

    /** The type a LOCAL event gives the value a store writes to a var. */
    Type valueType(int var, int storeOpcode) {
        String desc = descs.get(var);
        if (storeOpcode == ISTORE && desc.length() == 1 && "ZCBSI".indexOf(desc.charAt(0)) >= 0) {
            return Type.getType(desc);
        }
        return Type.getType(storeDesc(storeOpcode));
    }

    int[] slots() {
        return Ints.of(slots);
    }

    String[] names() {
        return names.toArray(new String[0]);
    }

    String[] descs() {
        return descs.toArray(new String[0]);
    }

    private static String storeDesc(int opcode) {
        switch (opcode) {
            case ISTORE: return "I";
            case LSTORE: return "J";
            case FSTORE: return "F";
            case DSTORE: return "D";
            default: return "Ljava/lang/Object;";
        }
    }
}
