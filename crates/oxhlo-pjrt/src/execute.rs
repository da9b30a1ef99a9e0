//! `PJRT_LoadedExecutable_Execute`: checks the argument lists against the program's signature, runs the
//! program once per addressable device (or on `execute_device`), hands back output buffers and
//! completion events (pending while a GPU still computes the results: `completion`), and donates the inputs the program aliases (unless the caller marks them
//! non-donatable), which deletes them as XLA does.

use crate::abi::exec::{ExecuteArgs, ExecuteOptions};
use crate::abi::has_field;
use crate::buffer::{buffer, Buffer, Gone};
use crate::engine::{HostArray, Launch};
use crate::error::{guard, Error, Result};
use crate::event::{Event, EventState};
use crate::executable::{loaded, Loaded};
use crate::{log, util};
use std::collections::HashSet;
use std::ffi::c_void;
use std::sync::atomic::Ordering;

/// The devices (client indices) and logical ids one execution runs on.
fn launch_devices(l: &Loaded, a: &ExecuteArgs) -> Result<(Vec<usize>, Launch)> {
    let o = &l.compiled.options;
    let (r, p) = (o.num_replicas as u32, o.num_partitions as u32);
    if !a.execute_device.is_null() {
        let d = l.client.device_index(a.execute_device)?;
        if a.num_devices != 1 {
            return Err(Error::invalid(format!("execute_device is set but {} argument lists were given", a.num_devices)));
        }
        let id = match l.device_indices.iter().position(|&x| x == d) {
            Some(i) => l.logical_ids[i],
            None if l.device_indices.len() == 1 => l.logical_ids[0],
            None => {
                return Err(Error::invalid(format!("the executable does not run on device {d} (its devices: {:?})", l.device_indices)))
            }
        };
        let launch = Launch { logical_ids: vec![(id.replica as u32, id.partition as u32)], num_replicas: r, num_partitions: p, host: vec![], caller_waits: true };
        return Ok((vec![d], launch));
    }
    if a.num_devices != l.device_indices.len() {
        return Err(Error::invalid(format!(
            "the executable runs on {} device(s) but {} argument lists were given",
            l.device_indices.len(),
            a.num_devices
        )));
    }
    let ids = l.logical_ids.iter().map(|i| (i.replica as u32, i.partition as u32)).collect();
    Ok((l.device_indices.clone(), Launch { logical_ids: ids, num_replicas: r, num_partitions: p, host: vec![], caller_waits: true }))
}

unsafe fn non_donatable(o: Option<&ExecuteOptions>) -> HashSet<usize> {
    let Some(o) = o else { return HashSet::new() };
    let off = std::mem::offset_of!(ExecuteOptions, num_non_donatable_input_indices);
    if !has_field(o.struct_size, off, 8) {
        return HashSet::new();
    }
    util::slice(o.non_donatable_input_indices, o.num_non_donatable_input_indices).iter().map(|&i| i as usize).collect()
}

pub unsafe extern "C" fn loaded_execute(args: *mut ExecuteArgs) -> *mut c_void {
    guard("PJRT_LoadedExecutable_Execute", args, |a| {
        let l = loaded(a.executable)?;
        if l.deleted.load(Ordering::SeqCst) {
            return Err(Error::precondition("the executable has been deleted"));
        }
        let prog = &l.compiled.program;
        let (devices, launch) = launch_devices(l, a)?;
        let specs = prog.inputs();
        if a.num_args != specs.len() {
            return Err(Error::invalid(format!(
                "{} takes {} argument(s) but was given {}",
                prog.name(),
                specs.len(),
                a.num_args
            )));
        }
        let lists = util::slice(a.argument_lists, a.num_devices);
        if lists.len() != devices.len() || (a.num_args > 0 && lists.iter().any(|p| p.is_null())) {
            return Err(Error::invalid("PJRT_LoadedExecutable_Execute: missing argument lists"));
        }
        let mut inputs: Vec<Vec<HostArray>> = Vec::with_capacity(devices.len());
        let mut arg_buffers: Vec<Vec<&Buffer>> = Vec::with_capacity(devices.len());
        for (d, &list) in lists.iter().enumerate() {
            let mut ins = Vec::with_capacity(specs.len());
            let mut bufs = Vec::with_capacity(specs.len());
            for (i, &bp) in util::slice(list, a.num_args).iter().enumerate() {
                let b = buffer(bp).map_err(|_| Error::invalid(format!("argument {i} of device {d} is a null buffer")))?;
                let what = format!("argument {i} of {}", prog.name());
                let arr = b.host_array(&what)?;
                if arr.spec != specs[i] {
                    return Err(Error::invalid(format!("{what}: expected {}, got {}", specs[i], arr.spec)));
                }
                ins.push(arr);
                bufs.push(b);
            }
            inputs.push(ins);
            arg_buffers.push(bufs);
        }
        let out_lists = util::slice(a.output_lists, devices.len());
        if out_lists.len() != devices.len() || out_lists.iter().any(|p| p.is_null() && !prog.outputs().is_empty()) {
            return Err(Error::invalid("PJRT_LoadedExecutable_Execute: missing output lists"));
        }
        let options = a.options.as_ref();
        let keep = non_donatable(options);
        if let Some(o) = options {
            log::debug(|| format!("execute options: {} send / {} recv callbacks per device, launch id {}", o.num_send_ops, o.num_recv_ops, o.launch_id));
        }
        let mut launch = launch;
        // A caller that neither waited for nor read the last execution's results enqueues ahead.
        launch.caller_waits = l.last_done.lock().map_or(true, |d| d.as_ref().is_none_or(|e| e.was_awaited()));
        if let Some(o) = options {
            launch.host = (0..devices.len()).map(|d| crate::host_callbacks::FrameworkHost::from_options(o, d)).collect();
        }
        log::debug(|| format!("execute {} on devices {devices:?}: {launch:?}", prog.name()));
        let t0 = std::time::Instant::now();
        let (outputs, in_flight) = prog.execute_async(inputs, &launch)?;
        log::info(|| {
            let still = if in_flight.is_some() { " (device work still running)" } else { "" };
            format!("executed {} in {:.1} ms{still}", prog.name(), t0.elapsed().as_secs_f64() * 1e3)
        });
        // Every output and the execution itself are complete when the device work is.
        let done = match in_flight {
            Some(work) => crate::completion::complete_later(work),
            None => EventState::ready(Ok(())),
        };
        if let Ok(mut last) = l.last_done.lock() {
            *last = Some(done.clone());
        }
        if outputs.len() != devices.len() {
            return Err(Error::internal(format!("backend returned {} output lists for {} devices", outputs.len(), devices.len())));
        }
        for (d, outs) in outputs.iter().enumerate() {
            if outs.len() != prog.outputs().len() {
                return Err(Error::internal(format!("backend returned {} outputs, expected {}", outs.len(), prog.outputs().len())));
            }
            for (k, (o, s)) in outs.iter().zip(prog.outputs()).enumerate() {
                if o.spec != *s || o.bytes.len() != s.byte_size() {
                    return Err(Error::internal(format!(
                        "backend returned {} ({} bytes) for output {k} on device {d}, expected {s}",
                        o.spec,
                        o.bytes.len()
                    )));
                }
            }
        }
        // Donate aliased inputs: they are deleted, as the caller expects after donation.
        for bufs in &arg_buffers {
            for don in prog.donations() {
                if !keep.contains(&don.input) {
                    if let Some(b) = bufs.get(don.input) {
                        b.take(Gone::Donated);
                    }
                }
            }
        }
        for ((outs, &dev), &list) in outputs.into_iter().zip(&devices).zip(out_lists) {
            for (k, o) in outs.into_iter().enumerate() {
                *list.add(k) = Buffer::in_flight(l.client.clone(), dev, o.spec, o.bytes, done.clone()).into_raw();
            }
        }
        if !a.device_complete_events.is_null() {
            for d in 0..devices.len() {
                *a.device_complete_events.add(d) = Event::into_raw(done.clone());
            }
        }
        Ok(())
    })
}
