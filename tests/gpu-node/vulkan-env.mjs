// vulkan-env.mjs — the environment under which Dawn (the `webgpu` npm package) finds a Vulkan
// driver in Node, and a relaunch of the current script under it (the loader path must be set before
// the process starts: the dynamic linker reads LD_LIBRARY_PATH once).
//   loader  libvulkan.so.1: the system's (Debian: libvulkan1) when ldconfig knows it, else the copy
//           Debian's chromium package ships in /usr/lib/chromium
//   driver  'swiftshader': Chromium's SwiftShader ICD (CPU-emulated: correct, slow; what the tests
//           use; Mesa's lavapipe on bookworm is rejected by Dawn). 'system': whatever ICDs the
//           loader finds (VK_ICD_FILENAMES / VK_DRIVER_FILES if set, else /usr/share/vulkan/icd.d,
//           /etc/vulkan/icd.d, and NVIDIA's container path /usr/local/nvidia/share/vulkan/icd.d);
//           when there is none it says so and uses SwiftShader.
// Leaves out: installing anything (docs/webgpu.md lists what a GPU machine needs).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHROMIUM_DIR = '/usr/lib/chromium';
export const SWIFTSHADER_ICD = `${CHROMIUM_DIR}/vk_swiftshader_icd.json`;
const ICD_DIRS = ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d', '/usr/local/share/vulkan/icd.d', '/usr/local/nvidia/share/vulkan/icd.d'];
const MARK = 'LNX_GPU_NODE_ENV';

function systemLoader() {
  try {
    return /libvulkan\.so\.1\b/.test(execFileSync('ldconfig', ['-p'], { encoding: 'utf8' }));
  } catch {
    return false;
  }
}
const icdFiles = (dir) => {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
};

/** { env, loader, driver, icd, notes } for driver 'swiftshader' | 'system'. */
export function vulkanEnv(driver, base = process.env) {
  const env = { ...base };
  const notes = [];
  let loader;
  if (systemLoader()) loader = 'system libvulkan.so.1';
  else if (existsSync(`${CHROMIUM_DIR}/libvulkan.so.1`)) {
    env.LD_LIBRARY_PATH = [CHROMIUM_DIR, base.LD_LIBRARY_PATH].filter(Boolean).join(':');
    loader = `${CHROMIUM_DIR}/libvulkan.so.1 (chromium's copy)`;
  } else {
    loader = null;
    notes.push('no Vulkan loader (libvulkan.so.1): install libvulkan1, or chromium, which ships one');
  }
  let icd;
  if (driver === 'system') {
    const given = base.VK_ICD_FILENAMES || base.VK_DRIVER_FILES;
    const found = ICD_DIRS.flatMap(icdFiles).filter((f) => !/swiftshader|lvp_icd/.test(f));
    if (given) icd = given;
    else if (found.length) {
      icd = found.join(':');
      if (found.some((f) => f.startsWith('/usr/local/nvidia/'))) env.VK_DRIVER_FILES = icd; // outside the loader's search path
    } else {
      notes.push('no GPU Vulkan driver (ICD) found: using SwiftShader, whose timings say nothing about GPU speed');
      driver = 'swiftshader';
    }
  }
  if (driver === 'swiftshader') {
    if (!existsSync(SWIFTSHADER_ICD)) notes.push(`SwiftShader's ICD ${SWIFTSHADER_ICD} is missing: apt-get install chromium`);
    env.VK_ICD_FILENAMES = icd = SWIFTSHADER_ICD;
    delete env.VK_DRIVER_FILES;
  }
  env.XDG_RUNTIME_DIR ??= mkdtempSync(join(tmpdir(), 'lnx-xdg-'));
  return { env, loader, driver, icd, notes };
}

/** In the relaunched process: what vulkanEnv decided (from the environment). Otherwise relaunches
 *  the current script under that environment with the .ts hook, and exits with its status. */
export function ensureVulkanEnv(driver) {
  if (process.env[MARK]) return JSON.parse(process.env[MARK]);
  const v = vulkanEnv(driver);
  const info = { loader: v.loader, driver: v.driver, icd: v.icd, notes: v.notes };
  const hook = fileURLToPath(new URL('./register-ts.mjs', import.meta.url));
  const r = spawnSync(process.execPath, ['--no-experimental-fetch', '--import', hook, process.argv[1], ...process.argv.slice(2)], {
    env: { ...v.env, [MARK]: JSON.stringify(info) },
    stdio: 'inherit',
  });
  if (r.error) throw r.error;
  process.exit(r.status ?? (r.signal ? 128 + 1 : 1));
}
