% The queries of JavaTA (Girgis & Jayaraman, "JavaTA: A Logic-based Debugger for Java"),
% written over the Java Event Log facts that `hindsight export --jel` writes. `hindsight
% prolog TRACE 'GOAL'` consults the facts, then this file, then the user's `--consult` files.
%
% Ids are the trace's timestamps (facts without an event of their own have ids between
% events, see docs/cli.md). Two JEL extensions are used: methodunwind/5, the end of a call left
% by an exception (the paper has no fact for it and its rule took every call without a
% methodexit before an uncaught exception to enclose the event), and setelement/4.

:- dynamic event/3.
:- discontiguous event/3.

% ---- Section 4.1: queries on program state ----

% Figure 4. The calls enclosing the event Id (their call ids, outermost first).
call_chain(Id, OutList) :-
    findall(CId, any_enclosing_method(Id, CId, _), OutList).

% normal termination
any_enclosing_method(Id, CallId, ExitId) :-
    event(Id, T, _),
    event(CallId, T, methodcall(_, O, N, _)),
    Id > CallId,
    event(ExitId, T, methodexit(CallId, _, O, N, _)),
    Id < ExitId.
% abnormal termination: the call was left by an exception after Id
any_enclosing_method(Id, CallId, ExitId) :-
    event(Id, T, _),
    event(CallId, T, methodcall(_, O, N, _)),
    Id > CallId,
    event(ExitId, T, methodunwind(CallId, _, O, N, _)),
    Id < ExitId.
% still running when the recording ended
any_enclosing_method(Id, CallId, none) :-
    event(Id, T, _),
    event(CallId, T, methodcall(_, _, _, _)),
    Id > CallId,
    \+ event(_, T, methodexit(CallId, _, _, _, _)),
    \+ event(_, T, methodunwind(CallId, _, _, _, _)).

% The enclosing calls' methodcall events, innermost first.
full_detail_call_chain(Id, CallChain) :-
    call_chain(Id, Ids),
    sort(0, @>=, Ids, Innermost),
    findall(event(C, T, E),
            ( member(C, Innermost), event(C, T, E), E = methodcall(_, _, _, _) ),
            CallChain).

% Figure 5. The enclosing environment of an event, and where an uncaught exception was thrown.
where_exception_is_thrown(Thread, Environment) :-
    where(Thread, exception(_, _, _, uncaught), Environment).

where(Thread, Event, EnclosingEnvironment) :-
    event(Id, Thread, Event),
    full_detail_call_chain(Id, [EnclosingEnvironment|_]).

% Figure 6. The state of object OName#OId at event E: the last value of each field.
object_state(E, OName, OId, State) :-
    event(S, _, methodcall(_, o(OName, OId), '<init>', _)),
    event(_, _, memberfields(c(OName), Fields)),
    object_state_helper(S, E, OName, OId, Fields, [], State).

object_state_helper(_, _, _, _, [], Ans, Ans).
object_state_helper(S, E, OName, OId, [cf(F)|R], SoFar, Ans) :-
    class_field_history(S, E, OName, F, H),
    last_or_none(H, F, C),
    object_state_helper(S, E, OName, OId, R, [C|SoFar], Ans).
object_state_helper(S, E, OName, OId, [of(F)|R], SoFar, Ans) :-
    instance_field_history(S, E, OName, OId, F, H),
    last_or_none(H, F, C),
    object_state_helper(S, E, OName, OId, R, [C|SoFar], Ans).

% A field never written in the span keeps its default value (the paper's `last` fails there).
last_or_none([], F, [none, F, default]) :- !.
last_or_none(H, _, C) :- last(H, C).

% Figure 7. The calls made and ended before event Id within its enclosing call.
pre_event_called_methods(Id, OutList) :-
    findall([Call, Exit], pre_event_called_method(Id, Call, Exit), OutList).

pre_event_called_method(Id, event(Call, T, E1), event(Exit, T, E2)) :-
    enclosed_method(Id, Call, Exit),
    Call < Id, Exit < Id,
    event(Call, T, E1), event(Exit, T, E2).

enclosed_method(Id, Call, Exit) :-
    full_detail_call_chain(Id, [event(EnclosingId, Thread, _)|_]),
    any_enclosing_method(Id, EnclosingId, IdExit),
    event(Call, Thread, methodcall(_, O, N, _)),
    event(Exit, Thread, methodexit(Call, _, O, N, _)),
    any_enclosing_method(Call, EnclosingId, IdExit),
    any_enclosing_method(Exit, EnclosingId, IdExit).

% ---- Section 4.2: queries over the execution history ----

% Figure 8. The values of an instance field of OName#OId between S and E.
instance_field_history(S, E, OName, OId, F, R) :-
    findall([Id, F, V], instance_field_value(S, E, OName, OId, F, Id, V), R).

instance_field_value(S, E, OName, OId, F, Id, V) :-
    event(Id, _, setfield(_, o(OName, OId), F, V)),
    Id >= S, Id =< E.

class_field_history(S, E, CName, F, R) :-
    findall([Id, F, V], class_field_value(S, E, CName, F, Id, V), R).

class_field_value(S, E, CName, F, Id, V) :-
    event(Id, _, setfield(_, c(CName), F, V)),
    Id >= S, Id =< E.

% The history of a local variable of the calls of method Name: [Id, Value] at each step.
local_variable_history(Name, Var, R) :-
    findall([Id, V],
            ( event(Id, _, step(_, Locals)), member(lv(Var, V), Locals),
              once(innermost_call(Id, Name)) ),
            R).

innermost_call(Id, Name) :-
    full_detail_call_chain(Id, [event(_, _, methodcall(_, _, Name, _))|_]).

% Histories of arguments and results of the calls of method Name.
argument_history(Name, R) :-
    findall([Id, Args], event(Id, _, methodcall(_, _, Name, Args)), R).
return_value_history(Name, R) :-
    findall([Id, V], event(Id, _, methodexit(_, _, _, Name, V)), R).

% Call tree: the calls made directly by the call CallId.
call_tree(CallId, Calls) :-
    event(CallId, T, methodcall(_, _, _, _)),
    call_end(CallId, T, End),
    findall(event(C, T, E),
            ( event(C, T, E), E = methodcall(_, _, _, _), C > CallId, C < End,
              full_detail_call_chain(C, [event(CallId, _, _)|_]) ),
            Calls).

call_end(CallId, T, End) :- event(End, T, methodexit(CallId, _, _, _, _)), !.
call_end(CallId, T, End) :- event(End, T, methodunwind(CallId, _, _, _, _)), !.
call_end(_, _, inf).

% Statement execution: was a line executed, was a method called, was a field assigned a
% value, is there an instance of a class, was an exception caught, is a thread running or
% has it exited.
executed(File, Line) :- event(_, _, step(l(File, Line), _)), !.
called(Name) :- event(_, _, methodcall(_, _, Name, _)), !.
assigned(Field, Value) :- event(_, _, setfield(_, _, Field, Value)), !.
instance_of(Class) :- event(_, _, methodcall(_, o(Class, _), '<init>', _)), !.
caught(Class) :- event(_, _, exception(_, o(Class, _), _, l(_, _))), !.
thread_running(Thread) :- event(_, Thread, threadstart(_)), \+ event(_, Thread, threaddeath(_)).
thread_exited(Thread) :- event(_, Thread, threaddeath(_)).
