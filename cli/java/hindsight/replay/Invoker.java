package hindsight.replay;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * Replays one request: finds the method, builds the entry state, calls the method non-virtually
 * with the output captured, and writes the answer from the exit state.
 */
final class Invoker {
    private Invoker() {}

    /** The answer to {@code req}, through its {@code END} line. */
    static String replay(Request req) throws Failure {
        Class<?> owner;
        MethodType type;
        try {
            owner = owner(req);
            type = Classes.methodType(req.descriptor);
        } catch (Failure f) {
            throw Failure.at(req.line, f.getMessage());
        }
        boolean constructor = req.name.equals("<init>");
        MethodHandle target = constructor ? constructor(owner, type, req) : method(owner, type, req);
        Class<?>[] params = type.parameterArray();
        if (req.args.size() != params.length) {
            throw Failure.at(req.argsLine, "ARGS has " + req.args.size() + " values, the descriptor "
                    + req.descriptor + " " + params.length);
        }
        GraphBuilder graph = GraphBuilder.build(req);
        List<Object> argv = new ArrayList<>(params.length + 1);
        Object self = null;
        if (!constructor && req.self != null) {
            self = graph.value(req.self, owner, req.selfLine, "THIS");
            if (self == null) {
                throw Failure.at(req.selfLine, "THIS is null");
            }
            argv.add(self);
        }
        for (int i = 0; i < params.length; i++) {
            argv.add(graph.value(req.args.get(i), params[i], req.argsLine, "argument " + i));
        }

        Capture capture = Capture.begin();
        Object result = null;
        Throwable thrown = null;
        try {
            result = target.invokeWithArguments(argv);
        } catch (Throwable t) {
            thrown = t;
        } finally {
            Capture.end();
            Capture.install();
        }
        if (capture.failure() != null) {
            throw new Failure(capture.failure());
        }
        if (constructor && thrown != null) {
            throw new Failure("the constructor threw " + thrown + ": the object it was building cannot be observed");
        }

        StateWriter state = new StateWriter(capture.next());
        String head;
        if (thrown != null) {
            head = "THREW " + state.token(thrown, Throwable.class);
        } else if (constructor || type.returnType() == void.class) {
            head = "RETURNED V";
        } else {
            head = "RETURNED " + state.token(result, type.returnType());
        }
        String thisLine = "";
        if (req.self != null) {
            thisLine = "THIS " + state.token(constructor ? result : self, Object.class) + "\n";
        }
        StringBuilder argsLine = new StringBuilder("ARGS ").append(params.length);
        for (int i = 0; i < params.length; i++) {
            argsLine.append(' ').append(state.token(argv.get(argv.size() - params.length + i), params[i]));
        }
        return head + "\n" + capture.records() + state.drain() + thisLine + argsLine + "\n" + capture.outs() + "END\n";
    }

    private static Class<?> owner(Request req) throws Failure {
        Class<?> owner = Classes.forName(req.owner);
        if (owner.isArray()) {
            throw new Failure(req.owner + " is an array class");
        }
        if (owner.getPackageName().equals(Invoker.class.getPackageName())) {
            throw new Failure(req.owner + " is part of the replayer, not of the program");
        }
        return owner;
    }

    /** A lookup with the owner's private access: the method may be private. */
    private static MethodHandles.Lookup lookup(Class<?> owner, Request req) throws Failure {
        try {
            return MethodHandles.privateLookupIn(owner, MethodHandles.lookup());
        } catch (IllegalAccessException | SecurityException e) {
            throw Failure.at(req.line, "no access to " + owner.getTypeName() + ": " + e.getMessage());
        }
    }

    /**
     * The method as {@code invokespecial} (instance) or {@code invokestatic} would call it: the
     * owner's own code even when the receiver's class overrides it.
     */
    private static MethodHandle method(Class<?> owner, MethodType type, Request req) throws Failure {
        MethodHandles.Lookup lookup = lookup(owner, req);
        String what = owner.getTypeName() + "." + req.name + req.descriptor;
        boolean instance = req.self != null;
        try {
            MethodHandle mh = instance
                    ? lookup.findSpecial(owner, req.name, type, owner)
                    : lookup.findStatic(owner, req.name, type);
            return mh.asFixedArity();
        } catch (NoSuchMethodException | IllegalAccessException e) {
            if (instance && exists(() -> lookup.findVirtual(owner, req.name, type))) {
                throw Failure.at(req.line, what + " is abstract: it has no code of its own to replay");
            }
            if (instance && exists(() -> lookup.findStatic(owner, req.name, type))) {
                throw Failure.at(req.line, what + " is static but the request has THIS");
            }
            if (!instance && exists(() -> lookup.findVirtual(owner, req.name, type))) {
                throw Failure.at(req.line, what + " is an instance method but the request has no THIS");
            }
            throw Failure.at(req.line, "method " + what + " not found (" + e.getMessage() + ")");
        }
    }

    /** A method handle lookup that may fail. */
    private interface Find {
        MethodHandle find() throws NoSuchMethodException, IllegalAccessException;
    }

    private static boolean exists(Find find) {
        try {
            find.find();
            return true;
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return false;
        }
    }

    /** {@code new CLASS(args)}; refused when THIS is of another class (a {@code super(...)} call). */
    private static MethodHandle constructor(Class<?> owner, MethodType type, Request req) throws Failure {
        if (req.self == null) {
            throw Failure.at(req.line, "a constructor call needs THIS");
        }
        if (req.self.kind() != Value.Kind.REF) {
            throw Failure.at(req.selfLine, "THIS of a constructor must be an object");
        }
        Request.Decl decl = req.decls.get(req.self.ref());
        if (decl == null || !decl.kind().equals("OBJ")) {
            throw Failure.at(req.selfLine, "THIS @" + req.self.ref() + " is not declared by an OBJ record");
        }
        if (!decl.type().equals(owner.getTypeName())) {
            throw Failure.at(req.selfLine, "THIS is a " + decl.type() + ", not a " + owner.getTypeName()
                    + ": a super(...) call cannot be replayed");
        }
        if (Modifier.isAbstract(owner.getModifiers()) || owner.isInterface()) {
            throw Failure.at(req.line, owner.getTypeName() + " is abstract: it cannot be instantiated");
        }
        try {
            return lookup(owner, req).findConstructor(owner, type).asFixedArity();
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw Failure.at(req.line, "constructor " + owner.getTypeName() + ".<init>" + req.descriptor
                    + " not found (" + e.getMessage() + ")");
        }
    }
}
