//! The PJRT layouts extension (`PJRT_Extension_Type_Layouts`): the device layouts of buffers, of an
//! executable's parameters and outputs, and the default layout of a shape. oxhlo keeps every array
//! dense and row-major, so each is the descending layout (`{n-1,...,1,0}` in XLA's text form, which
//! is what `MemoryLayout_Serialize` hands out and the framework parses).
//!
//! Without this extension the framework derives an executable's layouts from its optimized program
//! (`PJRT_Executable_OptimizedProgram`, converted from StableHLO to an HLO module on its side): ~40 ms
//! each for the parameters and the outputs of a nanoGPT training step on the dev machine, inside every
//! first call.

use crate::abi::{ExtPtr, ExtensionBase};
use crate::buffer::buffer;
use crate::error::{guard, Result};
use crate::executable::executable;
use std::ffi::{c_char, c_void};

/// `PJRT_Extension_Type_Layouts`.
pub const EXTENSION_LAYOUTS: i32 = 4;

/// A `PJRT_Layouts_MemoryLayout`: the layout's serialized (text) form.
pub struct MemoryLayout {
    text: Vec<u8>,
}

impl MemoryLayout {
    /// The row-major layout of an array of `rank` dimensions.
    pub fn descending(rank: usize) -> MemoryLayout {
        let dims: Vec<String> = (0..rank).rev().map(|d| d.to_string()).collect();
        MemoryLayout { text: format!("{{{}}}", dims.join(",")).into_bytes() }
    }
}

/// An executable's layouts for its parameters or outputs, owned by it (the framework never destroys
/// them), with the pointer array the C API hands out.
pub struct OwnedLayouts {
    layouts: Vec<MemoryLayout>,
    /// Pointers into `layouts` (never resized after creation).
    ptrs: Vec<*mut c_void>,
}

impl OwnedLayouts {
    pub fn descending(ranks: impl Iterator<Item = usize>) -> OwnedLayouts {
        let layouts: Vec<MemoryLayout> = ranks.map(MemoryLayout::descending).collect();
        let ptrs = layouts.iter().map(|l| l as *const MemoryLayout as *mut c_void).collect();
        OwnedLayouts { layouts, ptrs }
    }
}

/// `PJRT_Layouts_MemoryLayout_Destroy_Args`.
#[repr(C)]
pub struct DestroyArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub layout: *mut c_void,
}

/// `PJRT_Layouts_MemoryLayout_Serialize_Args`.
#[repr(C)]
pub struct SerializeArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub layout: *mut c_void,
    pub serialized_bytes: *const c_char,
    pub serialized_bytes_size: usize,
    pub serialized_layout: *mut c_void,
    pub serialized_layout_deleter: Option<unsafe extern "C" fn(*mut c_void)>,
}

/// `PJRT_Layouts_PJRT_Client_GetDefaultLayout_Args` and `..._Topology_GetDefaultLayout_Args` (the
/// client or the topology first).
#[repr(C)]
pub struct DefaultLayoutArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub owner: *mut c_void,
    pub ty: i32,
    pub dims: *const i64,
    pub num_dims: usize,
    pub layout: *mut c_void,
}

/// `PJRT_Layouts_PJRT_Buffer_MemoryLayout_Args`.
#[repr(C)]
pub struct BufferLayoutArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub buffer: *mut c_void,
    pub layout: *mut c_void,
}

/// `PJRT_Layouts_PJRT_Executable_GetOutputLayouts_Args` / `..._GetParameterLayouts_Args`.
#[repr(C)]
pub struct ExecutableLayoutsArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
    pub num: usize,
    pub layouts: *const *mut c_void,
}

type Entry<A> = Option<unsafe extern "C" fn(*mut A) -> *mut c_void>;

/// `PJRT_Layouts_Extension`.
#[repr(C)]
pub struct LayoutsExtension {
    pub base: ExtensionBase,
    pub destroy: Entry<DestroyArgs>,
    pub serialize: Entry<SerializeArgs>,
    pub client_default: Entry<DefaultLayoutArgs>,
    pub buffer_layout: Entry<BufferLayoutArgs>,
    pub topology_default: Entry<DefaultLayoutArgs>,
    pub executable_outputs: Entry<ExecutableLayoutsArgs>,
    pub executable_parameters: Entry<ExecutableLayoutsArgs>,
}

impl LayoutsExtension {
    /// The extension, linked to `next`.
    pub fn new(next: *mut ExtensionBase) -> LayoutsExtension {
        LayoutsExtension {
            base: ExtensionBase { struct_size: std::mem::size_of::<LayoutsExtension>(), kind: EXTENSION_LAYOUTS, next },
            destroy: Some(destroy),
            serialize: Some(serialize),
            client_default: Some(client_default),
            buffer_layout: Some(buffer_layout),
            topology_default: Some(topology_default),
            executable_outputs: Some(executable_outputs),
            executable_parameters: Some(executable_parameters),
        }
    }
}

fn boxed(l: MemoryLayout) -> *mut c_void {
    Box::into_raw(Box::new(l)) as *mut c_void
}

/// # Safety
/// `p` must be a layout this extension handed out and that is still alive.
unsafe fn layout<'a>(p: *mut c_void) -> Result<&'a MemoryLayout> {
    (p as *const MemoryLayout).as_ref().ok_or_else(|| crate::error::Error::invalid("the PJRT_Layouts_MemoryLayout pointer is null"))
}

unsafe extern "C" fn destroy(args: *mut DestroyArgs) -> *mut c_void {
    guard("PJRT_Layouts_MemoryLayout_Destroy", args, |a| {
        if !a.layout.is_null() {
            drop(Box::from_raw(a.layout as *mut MemoryLayout));
        }
        Ok(())
    })
}

unsafe extern "C" fn free_serialized(p: *mut c_void) {
    if !p.is_null() {
        drop(Box::from_raw(p as *mut Vec<u8>));
    }
}

unsafe extern "C" fn serialize(args: *mut SerializeArgs) -> *mut c_void {
    guard("PJRT_Layouts_MemoryLayout_Serialize", args, |a| {
        let bytes = Box::new(layout(a.layout)?.text.clone());
        a.serialized_bytes = bytes.as_ptr() as *const c_char;
        a.serialized_bytes_size = bytes.len();
        a.serialized_layout = Box::into_raw(bytes) as *mut c_void;
        a.serialized_layout_deleter = Some(free_serialized);
        Ok(())
    })
}

fn default_layout(a: &mut DefaultLayoutArgs) -> Result<()> {
    a.layout = boxed(MemoryLayout::descending(a.num_dims));
    Ok(())
}

unsafe extern "C" fn client_default(args: *mut DefaultLayoutArgs) -> *mut c_void {
    guard("PJRT_Layouts_PJRT_Client_GetDefaultLayout", args, default_layout)
}

unsafe extern "C" fn topology_default(args: *mut DefaultLayoutArgs) -> *mut c_void {
    guard("PJRT_Layouts_PJRT_Topology_GetDefaultLayout", args, default_layout)
}

unsafe extern "C" fn buffer_layout(args: *mut BufferLayoutArgs) -> *mut c_void {
    guard("PJRT_Layouts_PJRT_Buffer_MemoryLayout", args, |a| {
        a.layout = boxed(MemoryLayout::descending(buffer(a.buffer)?.spec.dims.len()));
        Ok(())
    })
}

unsafe fn executable_layouts(a: &mut ExecutableLayoutsArgs, outputs: bool) -> Result<()> {
    let e = executable(a.executable)?;
    let l = if outputs { &e.output_layouts } else { &e.parameter_layouts };
    a.num = l.layouts.len();
    a.layouts = l.ptrs.as_ptr();
    Ok(())
}

unsafe extern "C" fn executable_outputs(args: *mut ExecutableLayoutsArgs) -> *mut c_void {
    guard("PJRT_Layouts_PJRT_Executable_GetOutputLayouts", args, |a| executable_layouts(a, true))
}

unsafe extern "C" fn executable_parameters(args: *mut ExecutableLayoutsArgs) -> *mut c_void {
    guard("PJRT_Layouts_PJRT_Executable_GetParameterLayouts", args, |a| executable_layouts(a, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_api_chain_holds_the_layouts_extension_with_every_entry() {
        let mut p = crate::api::api().extension_start as *const ExtensionBase;
        let mut found = None;
        // SAFETY: the chain is the plugin's own static list of extensions.
        unsafe {
            while let Some(e) = p.as_ref() {
                if e.kind == EXTENSION_LAYOUTS {
                    found = Some(&*(p as *const LayoutsExtension));
                }
                p = e.next;
            }
        }
        let ext = found.expect("a layouts extension in the chain");
        assert_eq!(ext.base.struct_size, 3 * 8 + 7 * 8, "the base and 7 entries");
        assert!(ext.destroy.is_some() && ext.serialize.is_some() && ext.executable_parameters.is_some());
        // A default layout, serialized and destroyed through the entries.
        let dims = [2i64, 3, 4];
        let mut d = DefaultLayoutArgs {
            struct_size: std::mem::size_of::<DefaultLayoutArgs>(),
            extension_start: std::ptr::null_mut(),
            owner: std::ptr::null_mut(),
            ty: 11,
            dims: dims.as_ptr(),
            num_dims: 3,
            layout: std::ptr::null_mut(),
        };
        // SAFETY: valid argument structs; the layout is destroyed once.
        unsafe {
            assert!((ext.client_default.unwrap())(&mut d).is_null());
            let mut s = SerializeArgs {
                struct_size: std::mem::size_of::<SerializeArgs>(),
                extension_start: std::ptr::null_mut(),
                layout: d.layout,
                serialized_bytes: std::ptr::null(),
                serialized_bytes_size: 0,
                serialized_layout: std::ptr::null_mut(),
                serialized_layout_deleter: None,
            };
            assert!((ext.serialize.unwrap())(&mut s).is_null());
            let text = std::slice::from_raw_parts(s.serialized_bytes as *const u8, s.serialized_bytes_size);
            assert_eq!(text, b"{2,1,0}");
            (s.serialized_layout_deleter.unwrap())(s.serialized_layout);
            let mut x = DestroyArgs { struct_size: std::mem::size_of::<DestroyArgs>(), extension_start: std::ptr::null_mut(), layout: d.layout };
            assert!((ext.destroy.unwrap())(&mut x).is_null());
        }
    }

    #[test]
    fn descending_layouts_in_xla_text_form() {
        assert_eq!(MemoryLayout::descending(0).text, b"{}");
        assert_eq!(MemoryLayout::descending(1).text, b"{0}");
        assert_eq!(MemoryLayout::descending(3).text, b"{2,1,0}");
    }
}
