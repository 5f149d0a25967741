#include "app/cli/cli.h"

#include <cstdlib>
#include <ostream>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "core/util/data_dir.h"
#include "core/util/error.h"

namespace partita::cli {

namespace {

const char* kUsage = R"(usage: partita-cli <command> [options]     (also: partita-cli --version, --help)

commands:
  hypar      HyPar's hierarchical search (Algorithms 1 and 2)
  evaluate   evaluate a given grid (--grid 0011,0010,0000,0011), strategy file (--strategy F)
             or baseline (--method hypar|dp|mp|owt)
  explore    enumerate a strategy space: --explore-levels 1,4 | --explore-layers conv5_2,fc1 | --full
  table      DP, MP, OWT and HyPar for many networks (HyPar Figs. 6-8, 12), with geometric means
  scale      1 to 2^N accelerators (HyPar Fig. 11), --max-levels N (default 6)
  accpar     AccPar's search (types I/II/III with ratios) beside DP, OWT and HyPar under one model
  table --study accpar   OWT, HyPar and AccPar over DP for AlexNet, VGG-11..19, ResNet-18..50
  simulate   FlexFlow simulator: --network F --topology F|preset (--strategy F | --method dp|owt|mp|hypar|accpar)
             [--batch B] [--trace FILE] [--dot FILE] [--inference] [--json]
  mcmc       FlexFlow MCMC search: --network F --topology F|preset (--budget-s S | --iterations N) [--seed N]
             [--beta B] [--relative-beta] [--init dp,owt,mp,random,FILE] [--export FILE] [--no-stall-stop]
             [--full-sim] [--json]
  mpt        MPT: Winograd x data-parallel training on a 2-D worker grid (partita-cli mpt --help)
  l2s        Learn-to-Scale: single-image inference split across the cores of a mesh (partita-cli l2s --help)
  llm        LLM training plans: evaluate, search, validate, calibrate, profiles (partita-cli llm --help)
  inspect    per-operator table (type, inputs, output shape, weights, MACs per sample) and totals [--json]
  convert    write any network as partita-network/1 JSON: --network F.onnx --out F.json
  topology   generate KIND [options] --out F (ring, torus, mesh, switch, cluster, array, ...) or
             convert --topology F --out F2 (partita-cli topology --help)

  sweep      SPEC --db FILE [--jobs N] [--shard i/n] [--dry-run] [--retry-failed]: every point of a
             partita-sweep/1 spec on local threads, stored in the results database; a rerun resumes
  merge-db   OUT [IN...]: add the runs and sweep points of databases IN to OUT, without duplicates
             (OUT alone: create it or migrate it to this version's schema)

inputs:
  --network F            partita-network/1 JSON, AccPar text (.txt) or an ONNX model (.onnx)
  --network-format F     auto (default), json, accpar or onnx
  --input NAME=d0,d1,…   an ONNX graph input's full shape, batch first (repeatable; split at the last '=')
  --dim SYMBOL=V         an ONNX symbolic dimension (repeatable); open dims default to batch 1,
                         224 for image sides, 128 for sequence lengths
  --array F              partita-array/1 JSON (default: 16 HMC accelerators on an H-tree)
  --machine T            (hypar, accpar) a topology file or preset as the array: its levels and per-level
                         bandwidths by recursive bisection (2^H identical devices)
  --levels H             hierarchy levels, 1..12 (2^H accelerators; overrides the array's)
  --topology T           htree or torus (simulate and mcmc: a preset or a topology file: partita-topology/1,
                         ASTRA-sim network .yml/.json or Calculon system .json)
  --networks F1,F2,...   (table) networks to compare; default: the ten built-in ones
parameters:
  --batch B (256)  --mode cal|lit (cal: w_intra = 2)  --out-size post|pre  --bytes-per-element (4)
  --throughput-ops (4.2e11)  --link-bps (1.6e9)  --level-bw-factor (2)
  --e-mult-pj (3.7) --e-add-pj (0.9) --e-dram-pj (640) --e-sram-pj (5) --e-link-pj-per-bit (20) --sram-energy
accpar (and table --study accpar):
  --array F              default examples/arrays/tpu-mixed-128.json; --levels H alone = 2^H TPU-v3
  --batch B (512)  --ratio-model E|P (E)  --bytes-per-element (2)  --balanced-baselines
  --comm-only            communication only at ratio 1/2 (element counts), as HyPar and the authors' code
  --reference-compatible the authors' program (alpha = 1/2, elements, their ResNet handling)
output:
  --json                 one JSON object on stdout
  --csv FILE             the command's table as CSV (units in the column names)
  --export FILE          (hypar) write the strategy as partita-strategy/1 JSON
)";

}  // namespace

std::string examplesDir() { return partita::examplesDir(); }

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (!args.empty() && (args[0] == "--version" || args[0] == "version")) {
        out << "partita-cli " << PARTITA_VERSION << "\n";
        return 0;
    }
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        (args.empty() ? err : out) << kUsage;
        return args.empty() ? 2 : 0;
    }
    const std::string command = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    try {
        if (command == "hypar") return cmdHypar(rest, out);
        if (command == "evaluate") return cmdEvaluate(rest, out);
        if (command == "explore") return cmdExplore(rest, out);
        if (command == "table") return cmdTable(rest, out);
        if (command == "accpar") return cmdAccpar(rest, out);
        if (command == "scale") return cmdScale(rest, out);
        if (command == "simulate") return cmdSimulate(rest, out);
        if (command == "mcmc") return cmdMcmc(rest, out);
        if (command == "mpt") return cmdMpt(rest, out);
        if (command == "l2s") return cmdL2s(rest, out);
        if (command == "llm") return cmdLlm(rest, out);
        if (command == "inspect") return cmdInspect(rest, out);
        if (command == "convert") return cmdConvert(rest, out);
        if (command == "topology") return cmdTopology(rest, out);
        if (command == "sweep") return cmdSweep(rest, out, err);
        if (command == "merge-db") return cmdMergeDb(rest, out);
        err << "partita-cli: unknown command '" << command << "'\n\n" << kUsage;
        return 2;
    } catch (const UsageError& e) {
        err << "partita-cli " << command << ": " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        err << "partita-cli " << command << ": error: " << e.what() << "\n";
        return 1;
    }
}

int run(int argc, char** argv, std::ostream& out, std::ostream& err) {
    return run(std::vector<std::string>(argv + 1, argv + argc), out, err);
}

}  // namespace partita::cli
