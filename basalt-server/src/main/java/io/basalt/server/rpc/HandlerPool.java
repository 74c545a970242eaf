package io.basalt.server.rpc;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The threads that run calls. A call goes straight to the handler that went idle last (a stack, as HBase's
 * fast-path handlers), so the few handlers a load needs stay warm in their cores' caches instead of 32 taking turns
 * (a queue's waiters wake first-in, first-out). Calls arriving while every handler is busy wait in a bounded queue
 * that handlers drain before going idle.
 */
final class HandlerPool implements Executor, AutoCloseable {
  /** Handed to an idle handler to send it to the queue. */
  private static final Runnable TAKE_FROM_QUEUE = () -> {};

  private final ConcurrentLinkedDeque<Handler> idle = new ConcurrentLinkedDeque<>();
  private final ArrayBlockingQueue<Runnable> waiting;
  private final Handler[] handlers;
  private volatile boolean closed;

  HandlerPool(String name, int count, int queueCapacity) {
    waiting = new ArrayBlockingQueue<>(queueCapacity);
    handlers = new Handler[count];
    for (int i = 0; i < count; i++) {
      handlers[i] = new Handler(name + "-handler-" + (i + 1));
      handlers[i].thread.start();
    }
  }

  @Override
  public void execute(Runnable call) {
    if (closed) {
      throw new RejectedExecutionException("handler pool closed");
    }
    Handler h = idle.pollFirst();
    if (h != null) {
      h.give(call);
      return;
    }
    if (!waiting.offer(call)) {
      throw new RejectedExecutionException("call queue full");
    }
    // A handler that went idle after our look at the stack may have missed the queued call: wake one to take it.
    Handler late = idle.pollFirst();
    if (late != null) {
      late.give(TAKE_FROM_QUEUE);
    }
  }

  /**
   * Takes no more calls; handlers finish the calls they run and those queued, then end. Never interrupts: an
   * interrupt inside JE's I/O would invalidate a region's environment.
   */
  @Override
  public void close() {
    closed = true;
    for (Handler h : handlers) {
      LockSupport.unpark(h.thread);
    }
  }

  /** Handlers waiting for a call (tests). */
  int idleCount() {
    return idle.size();
  }

  boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    for (Handler h : handlers) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      h.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      if (h.thread.isAlive()) {
        return false;
      }
    }
    return true;
  }

  private final class Handler implements Runnable {
    final Thread thread;
    /** A call handed to this handler while idle; taken by it alone. */
    private volatile Runnable given;

    Handler(String name) {
      thread = new Thread(this, name);
      thread.setDaemon(true);
    }

    void give(Runnable call) {
      given = call;
      LockSupport.unpark(thread);
    }

    @Override
    public void run() {
      while (true) {
        Runnable call = waiting.poll();
        if (call == null) {
          if (closed) {
            return;
          }
          call = awaitCall();
          if (call == null) {
            continue;
          }
        }
        try {
          call.run();
        } catch (RuntimeException | Error e) {
          Thread.UncaughtExceptionHandler u = thread.getUncaughtExceptionHandler();
          u.uncaughtException(thread, e);
        }
      }
    }

    /** Goes idle until handed a call (null: closing, or a call to take from the queue instead). */
    private Runnable awaitCall() {
      idle.push(this);
      // A call queued between our poll and the push found no idle handler: leave the stack and serve it (else a
      // caller has taken us off the stack and hands us a call, or sends us to the queue).
      if (!waiting.isEmpty() && idle.removeFirstOccurrence(this)) {
        return null;
      }
      while (given == null) {
        if (closed && idle.removeFirstOccurrence(this)) {
          return null; // no caller took us off the stack, so none hands us a call
        }
        LockSupport.park(this);
      }
      Runnable call = given;
      given = null;
      return call == TAKE_FROM_QUEUE ? null : call;
    }
  }
}
