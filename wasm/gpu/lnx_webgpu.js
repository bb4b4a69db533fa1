// lnx_webgpu.js — the Emscripten --js-library boundary between the C++ GPU backend (gpu/device.cpp)
// and WebGPU. Emscripten 3.1.6's -sUSE_WEBGPU bindings are out of date with current browsers, so the
// engine talks to the device through these few entry points only:
//   create/destroy a buffer, write host memory into it, make a compute pipeline from WGSL source,
//   record a dispatch with its bindings and uniforms, submit, schedule an asynchronous readback.
// The device is the page's: pass it as `createLnx({ gpuDevice })`. Nothing here blocks: a readback
// maps a staging buffer and, when the promise resolves, copies into the wasm heap at the address
// the C++ side gave and marks the ticket done; C++ polls lnx_gpu_read_state(). JS awaits
// `Module.lnxGpu.settled()` between synchronous step() calls (no Asyncify).
//
// Recording: one command encoder and one compute pass stay open across dispatches until submit() or
// a write (queue.writeBuffer is ordered before the unsubmitted commands, so pending work is
// submitted first). A readback records its copy in that encoder and maps its staging buffer after
// the submit that carries it (at latest when the JS call that asked for it returns, or at
// settled()), so a batched step's readbacks, one per run, ride on the step's one submit instead of
// one submit each: each submit costs the host tens of µs on a real GPU. Uniforms go to 256-byte slots of one ring buffer written just
// before each submit; bind groups are cached by (pipeline, bindings, slot), so a training step that
// records the same dispatches every time creates none after the first.
// Device loss and uncaptured errors are recorded; lnx_gpu_status() reports them to C++, which throws.
// Leaves out: render anything, timestamp queries, multiple devices, buffer sub-allocation.

var LibraryLnxWebGpu = {
  // Maps and Sets do not survive the library's serialisation; create them at start-up.
  $LnxGpu__postset: "LnxGpu.pipelineIds = new Map(); LnxGpu.modules = new Map(); LnxGpu.groups = new Map(); " +
                    "LnxGpu.reads = new Map(); LnxGpu.inflight = new Set(); Module['lnxGpu'] = LnxGpu;",
  $LnxGpu: {
    SLOT: 256,
    SLOTS: 2048,
    dev: null,
    buffers: [null],   // id → GPUBuffer (0 = none)
    sizes: [0],
    freeIds: [],
    pipelines: [null],
    pipelineIds: null,
    modules: null,
    groups: null,
    enc: null,
    pass: null,
    recorded: 0,
    slot: 0,
    uniBuf: null,
    uniData: null,
    reads: null,
    nextTicket: 1,
    pendingMaps: [],   // readbacks whose copy is recorded, to map once it is submitted
    flushQueued: false,
    inflight: null,
    lost: null,        // message once the device is lost (or a readback failed)
    readFailed: false, // a readback failed: the device is probably going
    error: null,       // first uncaptured error message
    counters: { dispatches: 0, submits: 0, reads: 0, writes: 0, pipelines: 0, bindGroups: 0 },

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
      LnxGpu.groups.clear();
      LnxGpu.pipelines = [null];
      LnxGpu.pipelineIds.clear();
      LnxGpu.modules.clear();
      LnxGpu.uniBuf = d.createBuffer({ size: LnxGpu.SLOT * LnxGpu.SLOTS, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
      LnxGpu.uniData = new Uint8Array(LnxGpu.SLOT * LnxGpu.SLOTS);
      d.lost.then(function(info) {
        if (LnxGpu.dev === d) LnxGpu.lost = 'WebGPU device lost (' + info.reason + ')' + (info.message ? ': ' + info.message : '');
      });
      d.addEventListener('uncapturederror', function(ev) {
        if (LnxGpu.dev === d && !LnxGpu.error) LnxGpu.error = 'WebGPU error: ' + (ev.error && ev.error.message);
      });
    },
    // Submit what was recorded (uniform ring first: writeBuffer is ordered before this submit).
    // Then map the readbacks whose copies it carried.
    flush: function() {
      if (LnxGpu.enc) {
        var d = LnxGpu.dev;
        if (LnxGpu.pass) { LnxGpu.pass.end(); LnxGpu.pass = null; }
        if (LnxGpu.slot > 0) d.queue.writeBuffer(LnxGpu.uniBuf, 0, LnxGpu.uniData, 0, LnxGpu.slot * LnxGpu.SLOT);
        d.queue.submit([LnxGpu.enc.finish()]);
        LnxGpu.counters.submits++;
        LnxGpu.enc = null;
        LnxGpu.recorded = 0;
        LnxGpu.slot = 0;
      }
      var maps = LnxGpu.pendingMaps;
      LnxGpu.pendingMaps = [];
      for (var i = 0; i < maps.length; ++i) maps[i]();
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
    LnxGpu.flush();  // recorded work may still use it
    // Bind groups that reference this id are stale now.
    var tag = '|' + id + ',';
    LnxGpu.groups.forEach(function(v, k) { if (k.indexOf(tag) >= 0) LnxGpu.groups.delete(k); });
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
  // ("{}" for none); all three are static C strings, so the cache is keyed by their addresses.
  lnx_gpu_pipeline__deps: ['$LnxGpu'],
  lnx_gpu_pipeline: function(src, entry, constants) {
    var d = LnxGpu.device();
    if (!d) return 0;
    var key = src + '|' + entry + '|' + constants;
    var id = LnxGpu.pipelineIds.get(key);
    if (id) return id;
    var e = UTF8ToString(entry), c = UTF8ToString(constants);
    var mod = LnxGpu.modules.get(src);
    if (!mod) {
      mod = d.createShaderModule({ code: UTF8ToString(src) });
      LnxGpu.modules.set(src, mod);
    }
    var p = d.createComputePipeline({ layout: 'auto', compute: { module: mod, entryPoint: e, constants: JSON.parse(c) } });
    id = LnxGpu.pipelines.length;
    LnxGpu.pipelines.push(p);
    LnxGpu.pipelineIds.set(key, id);
    LnxGpu.counters.pipelines++;
    return id;
  },

  // Records one dispatch. `bindings` points at n × 4 u32: (binding, buffer id, byte offset, byte size);
  // binding 0 is always the uniform slot filled from HEAPU8[uni .. uni+ubytes).
  lnx_gpu_dispatch__deps: ['$LnxGpu'],
  lnx_gpu_dispatch: function(pipe, bindings, n, uni, ubytes, gx, gy, gz) {
    var d = LnxGpu.device();
    if (!d) return;
    if (LnxGpu.slot >= LnxGpu.SLOTS) LnxGpu.flush();
    var slot = LnxGpu.slot++;
    LnxGpu.uniData.set(HEAPU8.subarray(uni, uni + ubytes), slot * LnxGpu.SLOT);
    var key = pipe + 's' + slot;
    var b32 = bindings >> 2;
    for (var i = 0; i < n; i++) {
      var j = b32 + 4 * i;
      key += '|' + HEAPU32[j + 1] + ',' + HEAPU32[j] + ',' + HEAPU32[j + 2] + ',' + HEAPU32[j + 3];
    }
    var group = LnxGpu.groups.get(key);
    if (!group) {
      var pipeline = LnxGpu.pipelines[pipe];
      var entries = [{ binding: 0, resource: { buffer: LnxGpu.uniBuf, offset: slot * LnxGpu.SLOT, size: LnxGpu.SLOT } }];
      for (var i = 0; i < n; i++) {
        var j = b32 + 4 * i;
        entries.push({ binding: HEAPU32[j], resource: { buffer: LnxGpu.buffers[HEAPU32[j + 1]], offset: HEAPU32[j + 2], size: HEAPU32[j + 3] } });
      }
      group = d.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: entries });
      if (LnxGpu.groups.size > 50000) LnxGpu.groups.clear();
      LnxGpu.groups.set(key, group);
      LnxGpu.counters.bindGroups++;
    }
    if (!LnxGpu.pass) LnxGpu.pass = LnxGpu.encoder().beginComputePass();
    LnxGpu.pass.setPipeline(LnxGpu.pipelines[pipe]);
    LnxGpu.pass.setBindGroup(0, group);
    LnxGpu.pass.dispatchWorkgroups(gx, gy, gz);
    LnxGpu.recorded++;
    LnxGpu.counters.dispatches++;
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
    var staging = d.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    if (LnxGpu.pass) { LnxGpu.pass.end(); LnxGpu.pass = null; }
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
        staging.destroy();
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
