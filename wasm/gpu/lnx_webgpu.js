// lnx_webgpu.js — the Emscripten --js-library boundary between the C++ GPU backend (gpu/device.cpp,
// gpu/command_list.cpp) and WebGPU. Emscripten 3.1.6's -sUSE_WEBGPU bindings are out of date with
// current browsers, so the engine talks to the device through these few entry points only:
//   create/destroy a buffer, write host memory into it, make a compute pipeline from WGSL source,
//   make or drop a bind group, submit, schedule an asynchronous readback.
// The device is the page's: pass it as `createLnx({ gpuDevice })`. Nothing here blocks: a readback
// maps a staging buffer and, when the promise resolves, copies into the wasm heap at the address
// the C++ side gave and marks the ticket done; C++ polls lnx_gpu_read_state(). JS awaits
// `Module.lnxGpu.settled()` between synchronous step() calls (no Asyncify).
//
// Recording (docs/webgpu.md, "Recording"): C++ appends each dispatch to a list in wasm memory
// (pipeline id, bind group id, workgroup counts) and keeps its uniforms in a mirror of the uniform
// ring there; the list's header (command_list.cpp, words H_* below) is registered once. encode()
// walks the list through HEAPU32, with no call from wasm per dispatch and no object made per
// dispatch: setPipeline when the pipeline changes, setBindGroup, dispatchWorkgroups. It runs when the
// work is submitted, and before anything else is recorded into the encoder (a readback's copy).
// At a submit the ring's changed slots are written from the mirror (a few writeBuffer calls, one
// per range the C++ side marked), then the one command encoder and compute pass are finished and
// submitted. Pipelines and bind groups are made when C++ asks (its caches miss: once per kernel,
// once per (pipeline, slot, bindings)); their ids are C++'s. A write submits the recorded work first
// (queue.writeBuffer is ordered before unsubmitted commands) unless C++ says it need not
// (lnx_gpu_write_ahead). A readback records its copy in the encoder and maps its staging buffer
// after the submit that carries it (at latest when the JS call that asked for it returns, or at
// settled()), so a batched step's readbacks ride on the step's one submit. Staging buffers are kept
// by size once unmapped and reused.
// Device loss and uncaptured errors are recorded; lnx_gpu_status() reports them to C++, which throws.
// Leaves out: render anything, timestamp queries, multiple devices, buffer sub-allocation.

var LibraryLnxWebGpu = {
  // Maps and Sets do not survive the library's serialisation; create them at start-up.
  $LnxGpu__postset: "LnxGpu.modules = new Map(); LnxGpu.reads = new Map(); LnxGpu.inflight = new Set(); LnxGpu.stagingFree = new Map(); Module['lnxGpu'] = LnxGpu;",
  $LnxGpu: {
    // Words of the C++ list header (command_list.cpp, struct Header).
    H_CMDS: 0, H_COUNT: 1, H_UNI: 2, H_SLOT: 3, H_RANGES: 4, H_NRANGES: 5, H_GEN: 6, H_SLOTS: 7, H_SLOT_BYTES: 8,
    hdr: 0,            // its address (0 until C++ registers it)
    gen: 0,            // +1 at every attach: C++ drops its pipeline and bind-group ids when it changes
    dev: null,
    buffers: [null],   // id → GPUBuffer (0 = none)
    sizes: [0],
    freeIds: [],
    pipelines: [null], // id → GPUComputePipeline
    modules: null,     // WGSL source address → GPUShaderModule
    groups: [],        // id (chosen by C++) → GPUBindGroup
    enc: null,
    pass: null,
    lastPipe: 0,       // the pipeline set in the open pass
    uniBuf: null,
    reads: null,
    nextTicket: 1,
    pendingMaps: [],   // readbacks whose copy is recorded, to map once it is submitted
    flushQueued: false,
    inflight: null,
    stagingFree: null, // bytes → unmapped staging buffers to reuse
    lost: null,        // message once the device is lost (or a readback failed)
    readFailed: false, // a readback failed: the device is probably going
    error: null,       // first uncaptured error message
    counters: { dispatches: 0, submits: 0, reads: 0, writes: 0, uniformWrites: 0, uniformBytes: 0, pipelines: 0, bindGroups: 0 },

    device: function() {
      var d = Module['gpuDevice'];
      if (!d) return null;
      if (LnxGpu.dev !== d) LnxGpu.attach(d);
      return d;
    },
    attach: function(d) {
      LnxGpu.dev = d;
      LnxGpu.lost = null;
      LnxGpu.readFailed = false;
      LnxGpu.error = null;
      LnxGpu.enc = null;
      LnxGpu.pass = null;
      LnxGpu.groups = [];
      LnxGpu.pipelines = [null];
      LnxGpu.modules.clear();
      LnxGpu.stagingFree.clear();
      LnxGpu.uniBuf = null;
      LnxGpu.gen++;
      var h = LnxGpu.hdr >> 2;
      if (h) {
        // what was recorded was for the previous device
        HEAPU32[h + LnxGpu.H_COUNT] = HEAPU32[h + LnxGpu.H_SLOT] = HEAPU32[h + LnxGpu.H_NRANGES] = 0;
        HEAPU32[h + LnxGpu.H_GEN] = LnxGpu.gen;
      }
      d.lost.then(function(info) {
        if (LnxGpu.dev === d) LnxGpu.lost = 'WebGPU device lost (' + info.reason + ')' + (info.message ? ': ' + info.message : '');
      });
      d.addEventListener('uncapturederror', function(ev) {
        if (LnxGpu.dev === d && !LnxGpu.error) LnxGpu.error = 'WebGPU error: ' + (ev.error && ev.error.message);
      });
    },
    // The uniform ring: the header's slots × slot bytes, made on first use on each device.
    uniforms: function() {
      if (!LnxGpu.uniBuf) {
        var h = LnxGpu.hdr >> 2;
        LnxGpu.uniBuf = LnxGpu.dev.createBuffer({ size: HEAPU32[h + LnxGpu.H_SLOTS] * HEAPU32[h + LnxGpu.H_SLOT_BYTES], usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
      }
      return LnxGpu.uniBuf;
    },
    // Encodes the recorded dispatches into the open compute pass (opening one if needed).
    encode: function() {
      var h = LnxGpu.hdr >> 2;
      if (!h) return;
      var H = HEAPU32, n = H[h + LnxGpu.H_COUNT];
      if (!n || !LnxGpu.dev) return;
      var pass = LnxGpu.pass;
      if (!pass) {
        pass = LnxGpu.pass = LnxGpu.encoder().beginComputePass();
        LnxGpu.lastPipe = 0;
      }
      var P = LnxGpu.pipelines, G = LnxGpu.groups, last = LnxGpu.lastPipe;
      for (var p = H[h + LnxGpu.H_CMDS] >> 2, end = p + 5 * n; p < end; p += 5) {
        var pipe = H[p];
        if (pipe !== last) {
          pass.setPipeline(P[pipe]);
          last = pipe;
        }
        pass.setBindGroup(0, G[H[p + 1]]);
        pass.dispatchWorkgroups(H[p + 2], H[p + 3], H[p + 4]);
      }
      LnxGpu.lastPipe = last;
      H[h + LnxGpu.H_COUNT] = 0;
      LnxGpu.counters.dispatches += n;
    },
    // Ends the compute pass (after encoding what is recorded), so that a copy can follow.
    endPass: function() {
      LnxGpu.encode();
      if (LnxGpu.pass) {
        LnxGpu.pass.end();
        LnxGpu.pass = null;
      }
    },
    // Writes the uniform slots C++ marked as changed, from its mirror.
    writeUniforms: function() {
      var h = LnxGpu.hdr >> 2;
      if (!h) return;
      var H = HEAPU32, n = H[h + LnxGpu.H_NRANGES], r = H[h + LnxGpu.H_RANGES] >> 2;
      var uni = H[h + LnxGpu.H_UNI], S = H[h + LnxGpu.H_SLOT_BYTES];
      for (var i = 0; i < n; i++) {
        var lo = H[r + 2 * i] * S, bytes = H[r + 2 * i + 1] * S - lo;
        LnxGpu.dev.queue.writeBuffer(LnxGpu.uniforms(), lo, HEAPU8, uni + lo, bytes);
        LnxGpu.counters.uniformBytes += bytes;
      }
      LnxGpu.counters.uniformWrites += n;
      H[h + LnxGpu.H_NRANGES] = 0;
    },
    // Submit what was recorded (the changed uniforms first: writeBuffer is ordered before this
    // submit). Then map the readbacks whose copies it carried.
    flush: function() {
      LnxGpu.encode();
      if (LnxGpu.enc) {
        var d = LnxGpu.dev;
        if (LnxGpu.pass) { LnxGpu.pass.end(); LnxGpu.pass = null; }
        LnxGpu.writeUniforms();
        d.queue.submit([LnxGpu.enc.finish()]);
        LnxGpu.counters.submits++;
        LnxGpu.enc = null;
        if (LnxGpu.hdr) HEAPU32[(LnxGpu.hdr >> 2) + LnxGpu.H_SLOT] = 0;
      }
      var maps = LnxGpu.pendingMaps;
      LnxGpu.pendingMaps = [];
      for (var i = 0; i < maps.length; ++i) maps[i]();
    },
    // Staging buffers for readbacks, kept by size once unmapped and reused (a step reads the same
    // few sizes every time): no buffer made and destroyed per readback. A failed one is destroyed.
    staging: function(bytes) {
      var free = LnxGpu.stagingFree.get(bytes);
      if (free && free.length) return free.pop();
      return LnxGpu.dev.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    },
    unstage: function(b, bytes, d, unmapped) {
      var free = LnxGpu.stagingFree.get(bytes);
      if (!free) LnxGpu.stagingFree.set(bytes, free = []);
      if (!unmapped || LnxGpu.dev !== d || LnxGpu.lost || free.length >= 8 || bytes > (1 << 20)) b.destroy();
      else free.push(b);
    },
    encoder: function() {
      if (!LnxGpu.enc) LnxGpu.enc = LnxGpu.dev.createCommandEncoder();
      return LnxGpu.enc;
    },
    // Resolves once every scheduled readback has landed (or failed).
    settled: function() {
      if (LnxGpu.dev) LnxGpu.flush();  // readbacks still waiting for their submit
      return Promise.all(Array.from(LnxGpu.inflight)).then(function() {
        // A failed readback (a mapAsync rejected) usually means the device is going; give its lost
        // promise a moment to say why, so the reader is told "device lost (…)" rather than the
        // mapping's own error.
        var d = LnxGpu.dev;
        if (!d || !LnxGpu.readFailed || /device lost/.test(LnxGpu.lost || '')) return;
        return Promise.race([d.lost, new Promise(function(r) { setTimeout(r, 100); })]).then(function() {});
      });
    },
    // Submits what is recorded and resolves when the GPU has finished all of it (for timing).
    idle: function() {
      if (!LnxGpu.dev) return Promise.resolve();
      LnxGpu.flush();
      return LnxGpu.dev.queue.onSubmittedWorkDone();
    },
  },

  // Registers the C++ list header (command_list.cpp) and gives it the device's generation.
  lnx_gpu_list__deps: ['$LnxGpu'],
  lnx_gpu_list: function(hdr) {
    LnxGpu.device();
    LnxGpu.hdr = hdr;
    HEAPU32[(hdr >> 2) + LnxGpu.H_GEN] = LnxGpu.gen;
  },

  // 1 when a device was given and is usable.
  lnx_gpu_ready__deps: ['$LnxGpu'],
  lnx_gpu_ready: function() {
    return LnxGpu.device() && !LnxGpu.lost ? 1 : 0;
  },

  // Device limits the C++ side checks sizes against: 0 maxBufferSize, 1 maxStorageBufferBindingSize,
  // 2 minStorageBufferOffsetAlignment, 3 maxComputeWorkgroupsPerDimension.
  lnx_gpu_limit__deps: ['$LnxGpu'],
  lnx_gpu_limit: function(which) {
    var d = LnxGpu.device();
    if (!d) return 0;
    var l = d.limits;
    return [l.maxBufferSize, l.maxStorageBufferBindingSize, l.minStorageBufferOffsetAlignment,
            l.maxComputeWorkgroupsPerDimension][which] || 0;
  },

  // 0 ok; 1 device lost; 2 uncaptured error; 3 no device. Copies the message (UTF-8, NUL-terminated).
  lnx_gpu_status__deps: ['$LnxGpu'],
  lnx_gpu_status: function(buf, len) {
    var code = 0, msg = '';
    if (!LnxGpu.device()) { code = 3; msg = 'no WebGPU device was given to the module (createLnx({ gpuDevice }))'; }
    else if (LnxGpu.lost) { code = 1; msg = LnxGpu.lost; }
    else if (LnxGpu.error) { code = 2; msg = LnxGpu.error; }
    if (code && len > 0) stringToUTF8(msg, buf, len);
    return code;
  },

  // A zero-initialised STORAGE | COPY_SRC | COPY_DST buffer of `bytes` (a multiple of 4); 0 on failure.
  lnx_gpu_create_buffer__deps: ['$LnxGpu'],
  lnx_gpu_create_buffer: function(bytes) {
    var d = LnxGpu.device();
    if (!d) return 0;
    var b;
    try {
      b = d.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    } catch (e) {
      return 0;
    }
    var id = LnxGpu.freeIds.length ? LnxGpu.freeIds.pop() : LnxGpu.buffers.length;
    LnxGpu.buffers[id] = b;
    LnxGpu.sizes[id] = bytes;
    return id;
  },

  lnx_gpu_destroy_buffer__deps: ['$LnxGpu'],
  lnx_gpu_destroy_buffer: function(id) {
    var b = LnxGpu.buffers[id];
    if (!b) return;
    LnxGpu.flush();  // recorded work may still use it (C++ then drops the bind groups that bind it)
    b.destroy();
    LnxGpu.buffers[id] = null;
    LnxGpu.sizes[id] = 0;
    LnxGpu.freeIds.push(id);
  },

  // buffer[off .. off+bytes) = HEAPU8[src .. src+bytes)
  lnx_gpu_write__deps: ['$LnxGpu'],
  lnx_gpu_write: function(id, off, src, bytes) {
    if (!LnxGpu.device()) return;
    LnxGpu.flush();
    LnxGpu.dev.queue.writeBuffer(LnxGpu.buffers[id], off, HEAPU8, src, bytes);
    LnxGpu.counters.writes++;
  },

  // The same without submitting what is recorded first: the caller guarantees that no recorded,
  // unsubmitted command uses these bytes (a batch's staging area, gpu/device_batch.cpp).
  lnx_gpu_write_ahead__deps: ['$LnxGpu'],
  lnx_gpu_write_ahead: function(id, off, src, bytes) {
    if (!LnxGpu.device()) return;
    LnxGpu.dev.queue.writeBuffer(LnxGpu.buffers[id], off, HEAPU8, src, bytes);
    LnxGpu.counters.writes++;
  },

  // A compute pipeline for entry point `entry` of WGSL `src`, with override constants given as JSON
  // ("{}" for none); all three are static C strings. C++ caches the id (command_list.cpp); the
  // shader module is made once per source.
  lnx_gpu_pipeline__deps: ['$LnxGpu'],
  lnx_gpu_pipeline: function(src, entry, constants) {
    var d = LnxGpu.device();
    if (!d) return 0;
    var e = UTF8ToString(entry), c = UTF8ToString(constants);
    var mod = LnxGpu.modules.get(src);
    if (!mod) {
      mod = d.createShaderModule({ code: UTF8ToString(src) });
      LnxGpu.modules.set(src, mod);
    }
    var p = d.createComputePipeline({ layout: 'auto', compute: { module: mod, entryPoint: e, constants: JSON.parse(c) } });
    LnxGpu.pipelines.push(p);
    LnxGpu.counters.pipelines++;
    return LnxGpu.pipelines.length - 1;
  },

  // Bind group `id` (C++ chooses it) for pipeline `pipe`: binding 0 is uniform slot `slot` of the
  // ring; `bindings` points at n × 4 u32: (binding, buffer id, byte offset, byte size). 1 on success.
  lnx_gpu_bind_group__deps: ['$LnxGpu'],
  lnx_gpu_bind_group: function(id, pipe, bindings, n, slot) {
    var d = LnxGpu.device();
    if (!d) return 0;
    var S = HEAPU32[(LnxGpu.hdr >> 2) + LnxGpu.H_SLOT_BYTES];
    var entries = [{ binding: 0, resource: { buffer: LnxGpu.uniforms(), offset: slot * S, size: S } }];
    for (var i = 0, j = bindings >> 2; i < n; i++, j += 4)
      entries.push({ binding: HEAPU32[j], resource: { buffer: LnxGpu.buffers[HEAPU32[j + 1]], offset: HEAPU32[j + 2], size: HEAPU32[j + 3] } });
    LnxGpu.groups[id] = d.createBindGroup({ layout: LnxGpu.pipelines[pipe].getBindGroupLayout(0), entries: entries });
    LnxGpu.counters.bindGroups++;
    return 1;
  },

  // Drops bind groups `ids` (n u32): a buffer they bind is gone, or C++ clears its cache. What is
  // recorded is encoded first (an encoded pass keeps its groups alive).
  lnx_gpu_drop_groups__deps: ['$LnxGpu'],
  lnx_gpu_drop_groups: function(ids, n) {
    LnxGpu.encode();
    for (var i = 0, j = ids >> 2; i < n; i++, j++) LnxGpu.groups[HEAPU32[j]] = undefined;
  },

  lnx_gpu_submit__deps: ['$LnxGpu'],
  lnx_gpu_submit: function() {
    if (LnxGpu.device()) LnxGpu.flush();
  },

  // Schedules HEAPU8[dst .. dst+bytes) = buffer[off .. off+bytes) after all recorded work; returns a
  // ticket for lnx_gpu_read_state. The heap is written when the map resolves, unless forgotten.
  lnx_gpu_read__deps: ['$LnxGpu'],
  lnx_gpu_read: function(id, off, bytes, dst) {
    var d = LnxGpu.device();
    var ticket = LnxGpu.nextTicket++;
    var rec = { state: 0, forgotten: false };
    LnxGpu.reads.set(ticket, rec);
    if (!d || LnxGpu.lost) { rec.state = -1; return ticket; }
    var staging = LnxGpu.staging(bytes);
    LnxGpu.endPass();  // the recorded dispatches come before the copy
    LnxGpu.encoder().copyBufferToBuffer(LnxGpu.buffers[id], off, staging, 0, bytes);
    LnxGpu.counters.reads++;
    // mapped after the submit that carries the copy (flush)
    LnxGpu.pendingMaps.push(function() {
      var p = staging.mapAsync(GPUMapMode.READ).then(function() {
        if (!rec.forgotten) HEAPU8.set(new Uint8Array(staging.getMappedRange()), dst);
        staging.unmap();
        rec.state = 1;
        if (rec.forgotten) LnxGpu.reads.delete(ticket);
      }, function(e) {
        rec.state = -1;
        if (rec.forgotten) LnxGpu.reads.delete(ticket);
        LnxGpu.readFailed = true;
        if (!LnxGpu.lost) LnxGpu.lost = 'WebGPU readback failed: ' + (e && e.message);
      }).then(function() {
        LnxGpu.unstage(staging, bytes, d, rec.state === 1);
        LnxGpu.inflight.delete(p);
      });
      LnxGpu.inflight.add(p);
    });
    // No reader waits in vain: what the current call recorded is submitted when it returns, if
    // nothing submitted it before.
    if (!LnxGpu.flushQueued) {
      LnxGpu.flushQueued = true;
      queueMicrotask(function() {
        LnxGpu.flushQueued = false;
        if (LnxGpu.dev === d) LnxGpu.flush();
      });
    }
    return ticket;
  },

  // 0 pending, 1 landed, -1 failed. A landed or failed ticket is released by this call.
  lnx_gpu_read_state__deps: ['$LnxGpu'],
  lnx_gpu_read_state: function(ticket) {
    var rec = LnxGpu.reads.get(ticket);
    if (!rec) return -1;
    if (rec.state !== 0) LnxGpu.reads.delete(ticket);
    return rec.state;
  },

  // The destination is going away: never write it; release the ticket when it resolves.
  lnx_gpu_forget__deps: ['$LnxGpu'],
  lnx_gpu_forget: function(ticket) {
    var rec = LnxGpu.reads.get(ticket);
    if (!rec) return;
    rec.forgotten = true;
    if (rec.state !== 0) LnxGpu.reads.delete(ticket);  // else released by its own .then
  },
};

mergeInto(LibraryManager.library, LibraryLnxWebGpu);
