"""The trajectory of a joint over one animation cycle, in the style of a notebook (each `# %%`
is a cell). Plotted with matplotlib when it is installed (saved as out/trajectory.png),
otherwise printed.

    python3 python/examples/trajectory.py                      # the demo's tentacle tip, idle
    python3 python/examples/trajectory.py Fox.glb b_Tail03_014 Run  # MODEL JOINT ANIMATION
"""

# %% Load a model: a .gltf / .glb file, or ossa's built-in demo (no file needed).
import os
import sys

import numpy as np

import ossa

model = ossa.load(sys.argv[1]) if len(sys.argv) > 1 else ossa.demo()
joint_name = sys.argv[2] if len(sys.argv) > 2 else "tentacle_9"
animation = model.animation(sys.argv[3] if len(sys.argv) > 3 else 0)
print(model)
print("animations:", [(a.name, round(a.duration, 3)) for a in model.animations])

# %% Sample 120 times over one cycle: one call into C, world matrices of every node.
times = np.linspace(animation.start, animation.end, 120)
pose = model.sample(animation, times)
joint = model.find_node(joint_name)
positions = pose.world[:, joint, :, 3]  # the translation column: (120, 3) world positions
print(f"{joint_name} during {animation.name!r}: pose.world {pose.world.shape}, "
      f"path length {np.linalg.norm(np.diff(positions, axis=0), axis=1).sum():.3f}")

# %% Plot the path (or print it).
try:
    import matplotlib
    matplotlib.use("Agg")  # in a notebook, leave this line out to see the figure inline
    import matplotlib.pyplot as plt
except ImportError:
    plt = None

if plt is None:
    print("matplotlib is not installed; the positions (time, x, y, z):")
    for t, (x, y, z) in zip(times[::10], positions[::10]):
        print(f"  {t:6.3f}  {x:9.4f} {y:9.4f} {z:9.4f}")
else:
    figure = plt.figure(figsize=(10, 4))
    path = figure.add_subplot(1, 2, 1, projection="3d")
    path.plot(*positions.T)
    path.scatter(*positions[0], color="green", label="start")
    path.set_title(f"{joint_name}, {animation.name}")
    path.legend()
    axes = figure.add_subplot(1, 2, 2)
    for axis, name in enumerate("xyz"):
        axes.plot(times, positions[:, axis], label=name)
    axes.set_xlabel("seconds")
    axes.legend()
    figure.tight_layout()
    os.makedirs("out", exist_ok=True)
    figure.savefig(os.path.join("out", "trajectory.png"), dpi=100)
    print("wrote out/trajectory.png")
