"""Loading a model quantized; a docstring may say load_in_8bit=True without being a finding."""
import torch
from peft import prepare_model_for_kbit_training
from transformers import AutoModelForCausalLM, BitsAndBytesConfig


def load(name, args):
    # expect: py-bnb-quantized-load
    model = AutoModelForCausalLM.from_pretrained(name, load_in_8bit=True)
    # expect: py-bnb-quantized-load
    config = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16)
    # expect: py-bnb-quantized-load
    model = prepare_model_for_kbit_training(model)
    # ok: py-bnb-quantized-load
    plain = AutoModelForCausalLM.from_pretrained(name, load_in_8bit=False, torch_dtype=torch.float16)
    # ok: py-bnb-quantized-load
    optional = AutoModelForCausalLM.from_pretrained(name, load_in_8bit=args.int8)
    return model, config, plain, optional
