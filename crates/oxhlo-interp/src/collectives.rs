//! Cross-process exchange for collective ops (all_reduce, all_gather, ...): processes of the replicas x
//! partitions grid run on threads and meet here.
//!
//! One primitive, [`Rendezvous::exchange`]: every member of a process group contributes its values and
//! receives every member's, in group order. Successive collectives of one group are told apart by a
//! per-process sequence number for (op tag, group), so processes that run the same collectives in the
//! same order meet in the same slot. Nothing waits on a timer, and nothing can hang:
//! - a process that fails calls [`Rendezvous::poison`]: every waiter wakes and fails with its message;
//! - a process that returns calls [`Rendezvous::finish`]: a waiter whose group still needs it fails;
//! - a process about to wait checks for a deadlock (every live process waiting on an incomplete slot,
//!   e.g. two processes running different collectives) and, finding one, poisons the run.

use crate::tensor::RtValue;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};

/// A process of the grid: (replica_id, partition_id).
pub type ProcessId = (u32, u32);

type SlotKey = (String, Vec<ProcessId>, u64);

#[derive(Debug, Default)]
struct Slot {
    values: HashMap<ProcessId, Vec<RtValue>>,
    reads: usize,
}

#[derive(Debug, Default)]
struct State {
    slots: HashMap<SlotKey, Slot>,
    seq: HashMap<(ProcessId, String, Vec<ProcessId>), u64>,
    /// Which slot each blocked process waits on.
    waiting: HashMap<ProcessId, SlotKey>,
    /// Processes blocked in a `recv`, with the channel they wait on.
    recv_waiting: HashMap<ProcessId, i64>,
    /// Values sent (and not yet received) per channel id, shared by every process of the run.
    channels: HashMap<i64, VecDeque<Vec<RtValue>>>,
    finished: HashSet<ProcessId>,
    failed: HashSet<ProcessId>,
    poisoned: Option<String>,
}

impl State {
    /// Every live process is blocked on something that cannot happen: a collective slot still missing
    /// members or a channel with nothing in it.
    fn all_stuck(&self, live: usize) -> bool {
        self.waiting.len() + self.recv_waiting.len() >= live
            && self.waiting.values().all(|k| self.slots.get(k).map(|s| s.values.len() < k.1.len()).unwrap_or(false))
            && self.recv_waiting.values().all(|c| self.channels.get(c).map(|q| q.is_empty()).unwrap_or(true))
    }
}

/// The meeting point shared by all processes of one parallel run.
#[derive(Debug, Default)]
pub struct Rendezvous {
    pub num_replicas: u32,
    pub num_partitions: u32,
    state: Mutex<State>,
    cv: Condvar,
    /// `interpreter.run_parallel`'s `infeed = [@f, ...]`: functions whose results feed the next
    /// `infeed` of any process (one queue shared by the whole run, as in the StableHLO interpreter).
    infeed: Mutex<VecDeque<String>>,
}

impl Rendezvous {
    /// A rendezvous for a `num_replicas` x `num_partitions` grid.
    pub fn new(num_replicas: u32, num_partitions: u32) -> Rendezvous {
        Rendezvous {
            num_replicas,
            num_partitions,
            state: Mutex::new(State::default()),
            cv: Condvar::new(),
            infeed: Mutex::new(VecDeque::new()),
        }
    }

    /// Queues the functions whose results the run's `infeed` ops take, in order.
    pub fn set_infeed(&self, funcs: Vec<String>) {
        *self.infeed.lock().unwrap_or_else(|e| e.into_inner()) = funcs.into();
    }

    /// The next infeed function of the run, if any is left.
    pub fn pop_infeed(&self) -> Option<String> {
        self.infeed.lock().unwrap_or_else(|e| e.into_inner()).pop_front()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave the state inconsistent in a way that matters more
        // than the panic itself; keep going with the inner value.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Marks the run as failed (process `who` failed with `message`); wakes every waiter.
    pub fn poison(&self, who: ProcessId, message: &str) {
        let mut st = self.lock();
        st.failed.insert(who);
        if st.poisoned.is_none() {
            st.poisoned = Some(format!("process (replica {}, partition {}) failed: {message}", who.0, who.1));
        }
        drop(st);
        self.cv.notify_all();
    }

    /// Marks process `who` as returned; waiters that still need it fail.
    pub fn finish(&self, who: ProcessId) {
        self.lock().finished.insert(who);
        self.cv.notify_all();
    }

    fn live(&self, st: &State) -> usize {
        (self.num_replicas as usize * self.num_partitions as usize).saturating_sub(st.finished.len() + st.failed.len())
    }

    /// Contributes `value` as process `me` of `group` to the next `tag` collective of that group and
    /// returns every member's contribution in group order.
    pub fn exchange(&self, me: ProcessId, tag: &str, group: &[ProcessId], value: Vec<RtValue>) -> Result<Vec<Vec<RtValue>>, String> {
        if !group.contains(&me) {
            return Err(format!("process {me:?} is not in its own process group {group:?}"));
        }
        let mut st = self.lock();
        if let Some(p) = &st.poisoned {
            return Err(format!("collective aborted: {p}"));
        }
        let seq_key = (me, tag.to_string(), group.to_vec());
        let seq = *st.seq.get(&seq_key).unwrap_or(&0);
        st.seq.insert(seq_key, seq + 1);
        let key: SlotKey = (tag.to_string(), group.to_vec(), seq);
        st.slots.entry(key.clone()).or_default().values.insert(me, value);
        self.cv.notify_all();
        loop {
            let complete = st.slots.get(&key).map(|s| s.values.len() == group.len()).unwrap_or(false);
            if complete {
                let slot = st.slots.get_mut(&key).ok_or("collective slot vanished")?;
                let mut out = Vec::with_capacity(group.len());
                for p in group {
                    out.push(slot.values.get(p).cloned().ok_or("collective slot lost a value")?);
                }
                slot.reads += 1;
                if slot.reads == group.len() {
                    st.slots.remove(&key);
                }
                st.waiting.remove(&me);
                return Ok(out);
            }
            if let Some(p) = st.poisoned.clone() {
                st.waiting.remove(&me);
                return Err(format!("collective aborted: {p}"));
            }
            let missing: Vec<ProcessId> = {
                let slot = st.slots.get(&key).ok_or("collective slot vanished")?;
                group.iter().filter(|p| !slot.values.contains_key(p)).copied().collect()
            };
            if let Some(gone) = missing.iter().find(|p| st.finished.contains(p) || st.failed.contains(p)) {
                let msg = format!(
                    "{tag}: process (replica {}, partition {}) returned without joining the collective of group {group:?}",
                    gone.0, gone.1
                );
                st.poisoned.get_or_insert(msg.clone());
                st.waiting.remove(&me);
                self.cv.notify_all();
                return Err(msg);
            }
            st.waiting.insert(me, key.clone());
            // Deadlock: every live process waits on a slot that cannot complete.
            if st.all_stuck(self.live(&st)) {
                let msg = format!("deadlock: every process waits in a collective ({tag} of group {group:?} waits for {missing:?})");
                st.poisoned.get_or_insert(msg.clone());
                st.waiting.remove(&me);
                self.cv.notify_all();
                return Err(msg);
            }
            st = self.cv.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// `send` on channel `channel`: queues `values` for a later `recv` of any process of the run.
    pub fn send(&self, channel: i64, values: Vec<RtValue>) {
        self.lock().channels.entry(channel).or_default().push_back(values);
        self.cv.notify_all();
    }

    /// `recv` on channel `channel` by process `me`: takes the oldest value sent on it, waiting for a
    /// `send` of another process if there is none yet. Fails (instead of hanging) when the run is
    /// poisoned or every live process is blocked.
    pub fn recv(&self, me: ProcessId, channel: i64) -> Result<Vec<RtValue>, String> {
        let mut st = self.lock();
        loop {
            if let Some(v) = st.channels.get_mut(&channel).and_then(|q| q.pop_front()) {
                st.recv_waiting.remove(&me);
                return Ok(v);
            }
            if let Some(p) = st.poisoned.clone() {
                st.recv_waiting.remove(&me);
                return Err(format!("collective aborted: {p}"));
            }
            st.recv_waiting.insert(me, channel);
            if st.all_stuck(self.live(&st)) {
                let msg = format!("deadlock: recv on channel {channel} waits for a send that no process can make");
                st.poisoned.get_or_insert(msg.clone());
                st.recv_waiting.remove(&me);
                self.cv.notify_all();
                return Err(msg);
            }
            st = self.cv.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }
}
