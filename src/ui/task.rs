//! A job the person starts and may stop: a question, a replay, the golden questions, a console
//! query. One at a time per [`Task`]; while one runs, [`Task::running`] is true (the buttons
//! follow it) and Stop reaches it through its [`Stopped`] signal.
//!
//! Not Leptos's `Action`: aborting one drops its future where it stands, while a question must
//! end by itself when stopped (its session handed back, its tokens counted, its transcript
//! saying so); and an `Action` runs any number of dispatches at once, where these run one at a
//! time. A job that can simply be dropped (a console query) races its work against [`Stopped`].

use futures::channel::oneshot;
use futures::future::{FutureExt, Shared};
use leptos::prelude::*;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Start, stop and the end of one kind of job; cheap to copy into handlers.
#[derive(Clone, Copy)]
pub struct Task {
    running: RwSignal<bool>,
    /// Sending (or dropping) it stops the running job.
    stop: StoredValue<Option<oneshot::Sender<()>>>,
}

impl Task {
    pub fn new() -> Task {
        Task {
            running: RwSignal::new(false),
            stop: StoredValue::new(None),
        }
    }

    /// Whether a job runs; a view that reads it follows it.
    pub fn running(&self) -> bool {
        self.running.get()
    }

    pub fn running_untracked(&self) -> bool {
        self.running.get_untracked()
    }

    /// Starts a job, unless one runs (`None` then). The job runs until the returned [`Started`]
    /// is dropped: at its end, or earlier when the job says so.
    pub fn start(&self) -> Option<Started> {
        if self.running.get_untracked() {
            return None;
        }
        let (stop, stopped) = oneshot::channel();
        self.stop.set_value(Some(stop));
        self.running.set(true);
        Some(Started {
            task: *self,
            stopped: Stopped(stopped.shared()),
        })
    }

    /// Asks the running job to stop; nothing when none runs.
    pub fn stop(&self) {
        if let Some(stop) = self.stop.try_update_value(Option::take).flatten() {
            let _ = stop.send(());
        }
    }
}

/// A running job. Dropping it ends the job: Stop has nothing left to stop, and another may
/// start. A job that returns early, or whose future is dropped, ends all the same.
pub struct Started {
    task: Task,
    /// Resolves when the job is asked to stop.
    pub stopped: Stopped,
}

impl Drop for Started {
    fn drop(&mut self) {
        // `try_`: the page may be gone (its signals disposed) by the time a job ends.
        self.task.stop.try_set_value(None);
        self.task.running.try_set(false);
    }
}

/// Resolves when the job is asked to stop, or when its task can no longer ask (nobody is left
/// to see the job). Clone it for each part of a job that must stop (each question of a replay).
#[derive(Clone)]
pub struct Stopped(Shared<oneshot::Receiver<()>>);

impl Future for Stopped {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<()> {
        self.0.poll_unpin(context).map(|_| ())
    }
}
