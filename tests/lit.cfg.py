# The lit suite: tests/passes/*.ll run one kernplug pass under opt (kernplug-passes.so),
# tests/plugin/*.c run clang with the plugin. The paths come from lit.site.cfg.py, which
# CMake writes into the build tree (tests/lit.site.cfg.py.in); run it through CTest
# (`ctest -L passes`) or `lit.py -sv build/tests/lit`.
import os

import lit.formats

config.name = "kernplug"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".ll", ".c"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kp_binary_dir, "tests", "lit")
# The other folders of tests/ hold CTest programs, not lit tests.
config.excludes = [
    name for name in os.listdir(config.test_source_root) if name not in ("passes", "plugin")
]

config.substitutions.append(("%opt", config.kp_opt))
config.substitutions.append(("%clang", config.kp_clang))
config.substitutions.append(("%kernplug_passes", config.kp_passes_plugin))
config.substitutions.append(("%kernplug", config.kp_plugin))
config.substitutions.append(("%include", config.kp_include_dir))
# FileCheck, not and count.
config.environment["PATH"] = os.pathsep.join(
    [config.kp_llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))]
)
